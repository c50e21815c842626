import { formatPValue } from "../eval/statistics.js";
import type { PairedComparison } from "../evolve/paired-test.js";
import type { IterationRecord } from "../evolve/result-schema.js";
import type { ValidationStage } from "../evolve/validation.js";
import type { PlannedEdit } from "../harness/types.js";
import { refinementSummary } from "../refine/refinement-record.js";
import { describeEdit } from "./accepted-changes.js";
import { collapsedList, escapeHtml as h } from "./html.js";
import { labelFlagRows, labelWhy } from "./label-words-section.js";
import { droppedEditRows } from "./markdown-sections.js";
import { linkPatternIds } from "./pattern-names.js";
import { candidateAnchor, type ReportIndex, taskAnchor } from "./report-index.js";
import {
  changeLine,
  recordKey,
  splitByRole,
  stageFigures,
  stageOutcome,
} from "./validation-stages.js";

const short = (hash: string | undefined) => (hash ? hash.slice(0, 10) : "—");

/** Pattern ids as links by name (an id the run did not list: the iterative minibatch). */
function patternLinks(ids: readonly string[], index: ReportIndex, iteration: number): string {
  return ids
    .map((id) => {
      const ref = index.patternRef(id, iteration);
      return ref
        ? `<a class="pattern-ref" href="#${ref.anchor}">${h(ref.name)}</a>`
        : `<span class="muted" title="${h(id)}">observed failures</span>`;
    })
    .join(", ");
}

function taskLinks(ids: readonly string[]): string {
  return collapsedList(
    ids.map((id) => `<a href="#${taskAnchor(id)}">${h(id)}</a>`),
    6,
  );
}

function editLine(planned: PlannedEdit, index: ReportIndex, iteration: number): string {
  const patterns = planned.patterns.length
    ? ` <small>for ${patternLinks(planned.patterns, index, iteration)}</small>`
    : "";
  return `<li><code>${h(planned.module)}</code> ${h(describeEdit(planned.edit))}${patterns}<br><small class="muted">${linkPatternIds(planned.rationale, index, iteration)}</small></li>`;
}

function comparisonCell(comparison: PairedComparison): string {
  return `fixed ${comparison.fixed.length}, broken ${comparison.broken.length} of ${comparison.n}; ${h(formatPValue(comparison.pValue))}${comparison.fixed.length ? `<br><small>fixed: ${taskLinks(comparison.fixed)}</small>` : ""}${comparison.broken.length ? `<br><small class="rejected">broken: ${taskLinks(comparison.broken)}</small>` : ""}`;
}

/** One stage, whatever its step: its name and outcome, what it measured (tasks linked), its reason, its changes. */
function stageHtml(stage: ValidationStage): string {
  const { comparison, ...rest } = stage;
  const figures = stageFigures({ ...rest }).map(h);
  if (comparison) figures.push(comparisonCell(comparison));
  const changes = (stage.changes ?? []).map((change) => `<li>${h(changeLine(change))}</li>`);
  return `<div class="stage"><strong>${h(stage.step)}</strong> <span class="${stage.decision.accepted ? "accepted" : "rejected"}">${h(stageOutcome(stage))}</span>${figures.length ? `<br>${figures.join("<br>")}` : ""}<br><small>${h(stage.decision.reason)}</small>${changes.length ? `<ul>${changes.join("")}</ul>` : ""}</div>`;
}

function stagesCell(stages: readonly ValidationStage[]): string {
  return stages.map(stageHtml).join("") || "—";
}

function leftOutCell(
  iteration: IterationRecord,
  dropped: ReturnType<typeof droppedEditRows>,
): string {
  const items = [
    ...dropped
      .filter((row) => row.iteration === recordKey(iteration))
      .map((row) => `<li>Editor ${h(row.stage)} (change ${h(row.change)}): ${h(row.reason)}</li>`),
    ...iteration.guardRejections.map(
      (rejection) => `<li>guard <code>${h(rejection.guard)}</code>: ${h(rejection.reason)}</li>`,
    ),
  ];
  return items.length ? `<ul>${items.join("")}</ul>` : "—";
}

function row(iteration: IterationRecord, index: ReportIndex): string {
  const dropped = droppedEditRows(index.result);
  const edits = iteration.applied.map((planned) => editLine(planned, index, iteration.index));
  const hms = iteration.refinement ? h(refinementSummary(iteration.refinement)) : "";
  const changes = edits.length ? `<ul>${edits.join("")}</ul>` : hms || "—";
  const key = recordKey(iteration);
  const followUp = iteration.followUp ? `<br><small>${h(iteration.followUp.purpose)}</small>` : "";
  const { screening, deciding } = splitByRole(iteration.validation);
  return `<tr id="${candidateAnchor(key)}"><td><a href="#iteration-${key}">${key}</a>${followUp}</td><td class="hashes"><code title="${h(iteration.parentHash)}">${short(iteration.parentHash)}</code> →<br><code title="${h(iteration.candidateHash ?? "")}">${short(iteration.candidateHash)}</code></td><td>${changes}</td><td>${stagesCell(screening)}</td><td>${stagesCell(deciding)}</td><td class="${iteration.verdict}"><strong>${h(iteration.verdict)}</strong><br><small>${h(iteration.reason)}</small></td><td>${leftOutCell(iteration, dropped)}</td></tr>`;
}

/** The edits that write expected answers as label words, for the reviewer (report.md's section). */
function labelWordsHtml(index: ReportIndex): string {
  const rows = labelFlagRows(index.result);
  if (rows.length === 0) return "";
  return `<h3 id="label-words">Label words for the reviewer</h3><p>These edits write words that are also expected answers, which the leak guard let through as label words, or names that only one train task's input carries; check that they name the allowed labels and neither answer nor single out a task.</p><table><tr><th>Iteration</th><th>File</th><th>Words</th><th>In final harness</th><th>Edit</th></tr>${rows
    .map(
      ({ iteration, flag, inFinal }) =>
        `<tr><td><a href="#${candidateAnchor(iteration)}">${iteration}</a></td><td><code>${h(flag.file)}</code></td><td>${flag.words.map((word) => `<code>${h(word.text)}</code> (${h(labelWhy(word.why))})`).join(", ")}</td><td>${inFinal ? "yes" : "no"}</td><td><code>${h(describeEdit(flag.edit.edit, 200))}</code></td></tr>`,
    )
    .join("")}</table>`;
}

/**
 * The candidate table: one row per proposal (an iteration's follow-up has a row of its own) —
 * parent and candidate hash, the changes (by module, with the patterns they address by name),
 * its validation stages as they ran (the screens and pruning, then the tests that decide: each
 * with what it measured, fixed/broken tasks and p, its reason and the changes it judged), the
 * verdict with its reason, and the edits the Editor left out or the guards refused; then the
 * edits that wrote label words.
 */
export function candidatesHtml(index: ReportIndex): string {
  const { iterations } = index.result;
  if (iterations.length === 0)
    return `<section id="candidates"><h2>Candidates</h2><p>No iteration ran.</p></section>`;
  return `<section id="candidates"><h2>Candidates</h2><div class="wide"><table class="candidates"><tr><th>#</th><th>Harness (parent → candidate)</th><th>Changes</th><th>Screening</th><th>Deciding tests</th><th>Verdict and reason</th><th>Edits left out</th></tr>${iterations
    .map((iteration) => row(iteration, index))
    .join("")}</table></div>${labelWordsHtml(index)}</section>`;
}
