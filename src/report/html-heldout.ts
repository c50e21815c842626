import { formatPValue } from "../eval/statistics.js";
import type { TaskOutcome } from "../evolve/run-records.js";
import { formatDelta, formatScore } from "./format.js";
import { escapeHtml as h } from "./html.js";
import { formatCategoryScore, heldoutCategoryRows, spendRows } from "./measure-rows.js";
import type { ReportIndex } from "./report-index.js";

function categoryTable(index: ReportIndex): string {
  const rows = heldoutCategoryRows(index.result);
  if (rows.length === 0) return "<p>Per-category results were not kept by this run.</p>";
  return `<table class="numeric"><tr><th>Category</th><th>Seed harness</th><th>Final harness</th><th>Change</th></tr>${rows
    .map(
      (row) =>
        `<tr><td>${h(row.category)}</td><td>${h(formatCategoryScore(row.seed))}</td><td>${h(formatCategoryScore(row.final))}</td><td>${h(formatDelta(row.seed.accuracy, row.final.accuracy))}</td></tr>`,
    )
    .join("")}</table>`;
}

function flipRows(
  ids: readonly string[],
  kind: "fixed" | "broken",
  outcomes: { seed: Map<string, TaskOutcome>; final: Map<string, TaskOutcome> },
): string[] {
  return ids.map((id) => {
    const before = outcomes.seed.get(id);
    const after = outcomes.final.get(id);
    return `<tr><td><code>${h(id)}</code></td><td>${h(before?.category ?? after?.category ?? "—")}</td><td class="${kind === "fixed" ? "accepted" : "rejected"}">${kind === "fixed" ? "fail → pass" : "pass → fail"}</td><td>${before?.tokens ?? "—"} → ${after?.tokens ?? "—"}</td></tr>`;
  });
}

function spendLine(index: ReportIndex): string {
  const rows = spendRows(index.result).filter((row) => row.label.endsWith("(held-out)"));
  if (rows.length === 0) return "";
  return `<p>${rows.map((row) => `${h(row.label)}: ${h(row.seed)} → ${h(row.final)} (${h(row.ratio)})`).join("; ")}.</p>`;
}

/**
 * The held-out view: the gate's accuracies with intervals, accuracy per category (95% Wilson
 * intervals) and every flipped task with its category and tokens seed → final. Held-out tasks
 * appear only as results (ids, categories, pass/fail) — what the gate shows; their inputs,
 * outputs and traces are not kept.
 */
export function heldoutHtml(index: ReportIndex): string {
  const { result } = index;
  const { comparison } = result.gate;
  const measures = index.records?.measures.heldout;
  const outcomes = {
    seed: new Map((measures?.seed.tasks ?? []).map((task) => [task.taskId, task])),
    final: new Map((measures?.final.tasks ?? []).map((task) => [task.taskId, task])),
  };
  const flips = [
    ...flipRows(comparison.fixed, "fixed", outcomes),
    ...flipRows(comparison.broken, "broken", outcomes),
  ];
  return `<section id="heldout"><h2>Held-out</h2><p>Seed ${h(formatScore(result.baseline.heldout))} → final ${h(formatScore(result.final.heldout))} (${h(formatDelta(result.baseline.heldout.accuracy, result.final.heldout.accuracy))}). Paired on ${comparison.n} tasks: fixed ${comparison.fixed.length}, broken ${comparison.broken.length}, one-sided McNemar ${h(formatPValue(comparison.pValue))}. <strong class="${result.gate.passed ? "accepted" : "rejected"}">Gate ${result.gate.passed ? "passed" : "failed"}</strong>: ${h(result.gate.reason)}.</p>
${spendLine(index)}<p class="muted">No refiner role saw these tasks; they are shown as results only.</p>
<h3>By category</h3>${categoryTable(index)}
<h3>Flipped tasks</h3>${flips.length ? `<table><tr><th>Task</th><th>Category</th><th>Seed → final</th><th>Tokens seed → final</th></tr>${flips.join("")}</table>` : "<p>No held-out task flipped.</p>"}</section>`;
}
