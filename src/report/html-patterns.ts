import { describeEdit } from "./accepted-changes.js";
import { collapsedList, distinct, filterAttributes, filterBar, escapeHtml as h } from "./html.js";
import { patternReasons } from "./records.js";
import {
  candidateAnchor,
  type PatternRef,
  type ReportIndex,
  rolloutAnchor,
} from "./report-index.js";
import { recordKey, recordTitle } from "./validation-stages.js";
import { patternStanding } from "./wording.js";

/** Links to every member rollout of a pattern (by task id), the long tail collapsed. */
function memberLinks(ref: PatternRef, index: ReportIndex): string {
  const links = ref.pattern.memberKeys.map((key) => {
    const record = index.rollouts.get(key);
    if (record) {
      const sample =
        record.sampleIndex > 0 ? ` <small>(sample ${record.sampleIndex + 1})</small>` : "";
      return `<a href="#${rolloutAnchor(key)}">${h(record.taskId)}</a>${sample}`;
    }
    const example = ref.pattern.examples.find((item) => item.rolloutKey === key);
    const excerpt = index.result.iterations
      .find((iteration) => recordKey(iteration) === ref.record)
      ?.traces.find((trace) => trace.key === key);
    if (excerpt) return `<a href="#${rolloutAnchor(key)}">${h(excerpt.taskId)}</a>`;
    return h(example?.taskId ?? key.slice(0, 12));
  });
  return collapsedList(links, 8);
}

/**
 * The edits that targeted a pattern, each linked to its row in the candidate table with the
 * verdict of its candidate: where a failure's repair (or the refused attempt at one) is.
 */
export function addressingEdits(ids: readonly string[], index: ReportIndex): string {
  const entries = [...new Set(ids.flatMap((id) => index.editsFor(id)))];
  const items = entries.map(
    (entry) =>
      `<li><a class="edit-ref" href="#${candidateAnchor(entry.record)}">iteration ${entry.record}</a>: <code>${h(entry.edit.module)}</code> ${h(describeEdit(entry.edit.edit, 120))} — <span class="${entry.verdict}">${h(entry.verdict)}</span></li>`,
  );
  return items.length ? `<ul>${items.join("")}</ul>` : `<span class="muted">no edit</span>`;
}

function patternRow(ref: PatternRef, index: ReportIndex): string {
  const { pattern } = ref;
  const standing = patternStanding(pattern);
  const attributes = filterAttributes("patterns", {
    standing,
    iteration: ref.record,
  });
  return `<tr id="${ref.anchor}"${attributes}><td><strong>${h(pattern.name)}</strong> <small class="muted">${h(pattern.id)}</small><br><small>${h(pattern.description)}</small><br><small class="muted">module <code>${h(pattern.module)}</code></small></td><td class="${pattern.kind}">${h(standing)}</td><td>${pattern.support.tasks} / ${pattern.support.categories}</td><td>${h(pattern.support.categoryNames.join(", "))}</td><td>${memberLinks(ref, index)}</td><td><small>${h(patternReasons(pattern))}</small></td><td><small>${addressingEdits([pattern.id], index)}</small></td></tr>`;
}

/**
 * Every pattern of every iteration (a repair round's under its own record) with all its members: support,
 * categories, standing with the reasons, the id beside the name, a link per member rollout, and
 * the edits that targeted it (linked to the candidate table, with their verdict); filterable by standing and iteration, searchable.
 */
export function patternsHtml(index: ReportIndex): string {
  if (index.patterns.length === 0)
    return `<section id="patterns"><h2>Failure patterns</h2><p>No cross-instance diagnosis was run (or no failure was found).</p></section>`;
  const groups = new Map<string, PatternRef[]>();
  for (const ref of index.patterns)
    groups.set(ref.record, [...(groups.get(ref.record) ?? []), ref]);
  const titles = new Map(
    index.result.iterations.map((iteration) => [recordKey(iteration), recordTitle(iteration)]),
  );
  const tables = [...groups.entries()]
    .map(([record, refs]) => {
      const title = titles.get(record) ?? `Iteration ${record}`;
      return `<h3>${h(title)}</h3><table class="patterns"><tr><th>Pattern</th><th>Standing</th><th>Support (tasks / categories)</th><th>Categories</th><th>Members</th><th>Why</th><th>Edits for it</th></tr>${refs
        .map((ref) => patternRow(ref, index))
        .join("")}</table>`;
    })
    .join("");
  const bar = filterBar({
    group: "patterns",
    placeholder: "Search patterns (name, description, task id)",
    selects: [
      {
        key: "standing",
        label: "Standing",
        values: distinct(index.patterns.map((ref) => patternStanding(ref.pattern))),
      },
      {
        key: "iteration",
        label: "Iteration",
        values: distinct(index.patterns.map((ref) => ref.record)),
      },
    ],
  });
  return `<section id="patterns"><h2>Failure patterns</h2>${bar}${tables}</section>`;
}
