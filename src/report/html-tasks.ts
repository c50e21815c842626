import type { TaskOutcome } from "../evolve/run-records.js";
import { usd } from "./format.js";
import { collapsedList, distinct, filterAttributes, filterBar, escapeHtml as h } from "./html.js";
import { inlinePager, type Pager } from "./html-pages.js";
import { type ReportIndex, rolloutAnchor, taskAnchor } from "./report-index.js";

/** What happened to a task between the seed and the final harness. */
export type TaskStatus = "fixed" | "broken" | "still failing" | "passing";

/** The status of a task from its two outcomes. */
export function taskStatus(
  seed: TaskOutcome | undefined,
  final: TaskOutcome | undefined,
): TaskStatus {
  const before = seed?.pass ?? false;
  const after = final?.pass ?? false;
  if (!before && after) return "fixed";
  if (before && !after) return "broken";
  return after ? "passing" : "still failing";
}

function passCell(outcome: TaskOutcome | undefined): string {
  if (!outcome) return "—";
  const samples =
    outcome.samples > 1 ? ` <small>(${outcome.passes}/${outcome.samples})</small>` : "";
  return `<span class="${outcome.pass ? "accepted" : "rejected"}">${outcome.pass ? "pass" : "fail"}</span>${samples}`;
}

function spendCell(seed: TaskOutcome | undefined, final: TaskOutcome | undefined): string {
  const tokens = `${seed?.tokens ?? 0} → ${final?.tokens ?? 0}`;
  const cost =
    (seed?.costUsd ?? 0) + (final?.costUsd ?? 0) > 0
      ? `<br><small>${usd(seed?.costUsd ?? 0)} → ${usd(final?.costUsd ?? 0)}</small>`
      : "";
  return `${tokens}${cost}`;
}

/**
 * Every train task under the seed and the final harness: pass or fail, what changed, tokens (and
 * cost) seed → final, and links to its failing rollouts; filterable by status and category,
 * searchable. Needs records.json (absent: a note).
 */
export function tasksHtml(index: ReportIndex, pager: Pager = inlinePager): string {
  const measures = index.records?.measures.train;
  if (!measures)
    return `<section id="tasks"><h2>Train tasks</h2><p>This run kept no records.json: per-task outcomes are not available.</p></section>`;
  const seed = new Map(measures.seed.tasks.map((task) => [task.taskId, task]));
  const final = new Map(measures.final.tasks.map((task) => [task.taskId, task]));
  const ids = distinct([...seed.keys(), ...final.keys()]);
  const failing = new Map<string, string[]>();
  const ordered = [...index.rollouts.values()].sort(
    (a, b) => index.harnessRank(a.harnessHash) - index.harnessRank(b.harnessHash),
  );
  for (const record of ordered)
    failing.set(record.taskId, [
      ...(failing.get(record.taskId) ?? []),
      `<a href="#${rolloutAnchor(record.key)}">${h(index.harnessLabel(record.harnessHash))}</a>`,
    ]);
  const rows = ids.map((id) => {
    const before = seed.get(id);
    const after = final.get(id);
    const status = taskStatus(before, after);
    const category = before?.category ?? after?.category ?? "";
    const attributes = filterAttributes("tasks", { status, category });
    return `<tr id="${taskAnchor(id)}"${attributes}><td><code>${h(id)}</code></td><td>${h(category)}</td><td>${passCell(before)}</td><td>${passCell(after)}</td><td class="status-${status.replace(" ", "-")}">${h(status)}</td><td>${spendCell(before, after)}</td><td>${collapsedList(failing.get(id) ?? [], 3)}</td></tr>`;
  });
  const statuses = distinct(ids.map((id) => taskStatus(seed.get(id), final.get(id))));
  const bar = filterBar({
    group: "tasks",
    placeholder: "Search tasks (id, category)",
    selects: [
      { key: "status", label: "Status", values: statuses },
      {
        key: "category",
        label: "Category",
        values: distinct(measures.seed.tasks.map((task) => task.category)),
      },
    ],
  });
  const paged = pager({ group: "tasks", items: rows, container: "tbody" });
  return `<section id="tasks"><h2>Train tasks</h2><p>Seed versus final harness on every train task; tokens are per task over all its samples.</p>${bar}<table class="tasks"><thead><tr><th>Task</th><th>Category</th><th>Seed</th><th>Final</th><th>Change</th><th>Tokens seed → final</th><th>Failing rollouts</th></tr></thead>${paged.body}</table>${paged.trailer}</section>`;
}
