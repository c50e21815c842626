import { compactJson } from "./format.js";
import { escapeHtml as h } from "./html.js";
import { droppedEditRows } from "./markdown-sections.js";
import { linkPatternIds } from "./pattern-names.js";
import type { ReportIndex } from "./report-index.js";

/**
 * What did not make it (report.md's Rejections): every edit the Editor left out, with its
 * reason; every edit a guard refused; every proposal the loop rejected, as later refinements
 * were shown it.
 */
export function rejectionsHtml(index: ReportIndex): string {
  const { result } = index;
  const dropped = droppedEditRows(result);
  const guard = result.iterations.flatMap((iteration) =>
    iteration.guardRejections.map((rejection) => ({ iteration: iteration.index, rejection })),
  );
  const parts = [`<section id="rejections"><h2>Rejections</h2>`];
  if (dropped.length > 0)
    parts.push(
      `<h3>Edits the Editor left out</h3><table><tr><th>Iteration</th><th>Stage</th><th>Change</th><th>Reason</th><th>Edit</th></tr>${dropped
        .map(
          (row) =>
            `<tr><td><a href="#candidate-${row.iteration}">${row.iteration}</a></td><td>${h(row.stage)}</td><td>${h(row.change)}</td><td>${h(row.reason)}</td><td>${row.edit === null ? "—" : `<code>${h(compactJson(row.edit, 400))}</code>`}</td></tr>`,
        )
        .join("")}</table>`,
    );
  parts.push(
    guard.length === 0
      ? "<p>No edit was refused by the guards.</p>"
      : `<h3>Refused by the guards</h3><table><tr><th>Iteration</th><th>Guard</th><th>Reason</th><th>Edit</th></tr>${guard
          .map(
            ({ iteration, rejection }) =>
              `<tr><td><a href="#candidate-${iteration}">${iteration}</a></td><td>${h(rejection.guard)}</td><td>${h(rejection.reason)}</td><td><code>${h(compactJson(rejection.edit.edit, 400))}</code></td></tr>`,
          )
          .join("")}</table>`,
  );
  if (result.rejectedProposals.length > 0)
    parts.push(
      `<h3>Rejected proposals</h3><p class="muted">Remembered and shown to later refinement.</p><ul>${result.rejectedProposals
        .map(
          (proposal) =>
            `<li>${linkPatternIds(proposal.summary, index)} — ${h(proposal.reason)}${proposal.patternIds.length ? ` <small>(patterns: ${linkPatternIds(proposal.patternIds.join(", "), index)})</small>` : ""}</li>`,
        )
        .join("")}</ul>`,
    );
  parts.push("</section>");
  return parts.join("");
}
