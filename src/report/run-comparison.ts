import { formatPValue } from "../eval/statistics.js";
import type { EvolveResult, Score } from "../evolve/result-schema.js";
import { acceptedChanges } from "./accepted-changes.js";
import { clip, formatDelta, formatScore, usd } from "./format.js";
import { plural, proposalTally, stopSentence } from "./wording.js";

/** One row of a two-run comparison: a label, the two runs' values, and the difference when numeric. */
export interface ComparisonRow {
  label: string;
  a: string;
  b: string;
  delta?: string;
}

/** Two runs side by side: rows of figures, their accepted changes, and caveats for the reader. */
export interface RunComparison {
  rows: ComparisonRow[];
  changes: { both: string[]; onlyA: string[]; onlyB: string[] };
  notes: string[];
}

function when(result: EvolveResult): string {
  if (!result.run) return "(not recorded)";
  const time = result.run.finishedAt.replace("T", " ").slice(0, 16);
  const git = result.run.git
    ? ` · ${result.run.git.commit.slice(0, 7)}${result.run.git.dirty ? " (dirty)" : ""}`
    : "";
  return `${time}${git}`;
}

const overlap = (a: Score, b: Score) =>
  a.interval[0] <= b.interval[1] && b.interval[0] <= a.interval[1];

function money(delta: number): string {
  return `${delta >= 0 ? "+" : "−"}${usd(Math.abs(delta))}`;
}

function count(delta: number): string {
  return `${delta >= 0 ? "+" : "−"}${Math.abs(delta)}`;
}

function scoreRows(a: EvolveResult, b: EvolveResult): ComparisonRow[] {
  const rows: ComparisonRow[] = [];
  for (const split of ["train", "heldout"] as const) {
    const name = split === "train" ? "train" : "held-out";
    for (const which of ["baseline", "final"] as const) {
      const left = a[which][split];
      const right = b[which][split];
      rows.push({
        label: `${name}: ${which === "baseline" ? "seed" : "final"}`,
        a: formatScore(left),
        b: formatScore(right),
        delta: formatDelta(left.accuracy, right.accuracy),
      });
    }
  }
  return rows;
}

function costRows(a: EvolveResult, b: EvolveResult): ComparisonRow[] {
  const split = (result: EvolveResult) =>
    `agent ${usd(result.cost.costUsd - result.cost.refinement.costUsd)} · refiner ${usd(result.cost.refinement.costUsd)}`;
  const tokens = (result: EvolveResult) => result.cost.promptTokens + result.cost.completionTokens;
  return [
    {
      label: "cost",
      a: usd(a.cost.costUsd),
      b: usd(b.cost.costUsd),
      delta: money(b.cost.costUsd - a.cost.costUsd),
    },
    { label: "  split", a: split(a), b: split(b) },
    {
      label: "LLM calls",
      a: String(a.cost.llmCalls),
      b: String(b.cost.llmCalls),
      delta: count(b.cost.llmCalls - a.cost.llmCalls),
    },
    {
      label: "tokens",
      a: tokens(a).toLocaleString("en-US"),
      b: tokens(b).toLocaleString("en-US"),
      delta: count(tokens(b) - tokens(a)),
    },
    {
      label: "rollouts",
      a: String(a.cost.rollouts),
      b: String(b.cost.rollouts),
      delta: count(b.cost.rollouts - a.cost.rollouts),
    },
    {
      label: "wall time",
      a: `${(a.cost.wallMs / 1000).toFixed(1)} s`,
      b: `${(b.cost.wallMs / 1000).toFixed(1)} s`,
      delta: `${b.cost.wallMs >= a.cost.wallMs ? "+" : "−"}${(Math.abs(b.cost.wallMs - a.cost.wallMs) / 1000).toFixed(1)} s`,
    },
  ];
}

function changeKeys(result: EvolveResult): string[] {
  return acceptedChanges(result).map((change) => `${change.module}: ${change.change}`);
}

/**
 * Compares two evolve runs (their result.json): accuracies with intervals before and after on
 * both splits, the gate, accepted edits, cost (split agent/refiner), and which accepted changes
 * they share. Notes say when the runs are not comparable (other tasks, config or seed harness)
 * and when an accuracy difference lies within overlapping intervals.
 */
export function compareRuns(a: EvolveResult, b: EvolveResult): RunComparison {
  const tally = (result: EvolveResult) => {
    const counts = proposalTally(result);
    return `${plural(counts.edits, "edit")} (${counts.accepted}/${counts.proposals} proposals accepted)`;
  };
  const gate = (result: EvolveResult) =>
    `${result.gate.passed ? "passed" : "failed"} (${formatPValue(result.gate.comparison.pValue)})`;
  const rows: ComparisonRow[] = [
    { label: "strategy", a: `${a.strategy}, seed ${a.seed}`, b: `${b.strategy}, seed ${b.seed}` },
    { label: "model", a: a.model, b: b.model },
    { label: "finished, commit", a: when(a), b: when(b) },
    {
      label: "version",
      a: a.run?.ecdysisVersion ?? "(not recorded)",
      b: b.run?.ecdysisVersion ?? "(not recorded)",
    },
    ...scoreRows(a, b),
    { label: "held-out gate", a: gate(a), b: gate(b) },
    {
      label: "accepted",
      a: tally(a),
      b: tally(b),
      delta: count(b.acceptedEdits.length - a.acceptedEdits.length),
    },
    {
      label: "stopped",
      a: clip(stopSentence(a).replace(/^stopped: /, ""), 60),
      b: clip(stopSentence(b).replace(/^stopped: /, ""), 60),
    },
    ...costRows(a, b),
  ];
  const left = changeKeys(a);
  const right = changeKeys(b);
  const changes = {
    both: left.filter((key) => right.includes(key)),
    onlyA: left.filter((key) => !right.includes(key)),
    onlyB: right.filter((key) => !left.includes(key)),
  };
  const notes: string[] = [];
  for (const split of ["train", "heldout"] as const) {
    if (a.final[split].n !== b.final[split].n)
      notes.push(
        `the ${split === "train" ? "train" : "held-out"} splits differ in size (${a.final[split].n} vs ${b.final[split].n} tasks): their accuracies are not directly comparable`,
      );
  }
  if (a.configHash !== b.configHash)
    notes.push("the runs used different configs (config hash differs)");
  if (a.harness.seedHash !== b.harness.seedHash)
    notes.push("the runs started from different seed harnesses");
  if (
    overlap(a.final.heldout, b.final.heldout) &&
    a.final.heldout.accuracy !== b.final.heldout.accuracy
  )
    notes.push(
      "the final held-out 95% intervals overlap: the difference may be noise (result.json keeps no per-task results for a paired test; 'ecdysis gate' pairs two harnesses)",
    );
  return { rows, changes, notes };
}

/** The comparison as a plain-text table for the terminal. */
export function formatComparison(
  comparison: RunComparison,
  names: { a: string; b: string },
): string {
  const header: ComparisonRow = {
    label: "",
    a: `A: ${names.a}`,
    b: `B: ${names.b}`,
    delta: "B − A",
  };
  const rows = [header, ...comparison.rows];
  const width = (pick: (row: ComparisonRow) => string) =>
    Math.max(...rows.map((row) => [...pick(row)].length));
  const widths = {
    label: width((row) => row.label),
    a: width((row) => row.a),
    b: width((row) => row.b),
  };
  const pad = (text: string, size: number) =>
    text + " ".repeat(Math.max(0, size - [...text].length));
  const lines = rows.map((row) =>
    `${pad(row.label, widths.label)}  ${pad(row.a, widths.a)}  ${pad(row.b, widths.b)}  ${row.delta ?? ""}`.trimEnd(),
  );
  const { both, onlyA, onlyB } = comparison.changes;
  lines.push("", "accepted changes:");
  if (both.length + onlyA.length + onlyB.length === 0) lines.push("  none in either run");
  for (const [label, list] of [
    ["both", both],
    ["A only", onlyA],
    ["B only", onlyB],
  ] as const)
    for (const change of list) lines.push(`  ${label.padEnd(6)}  ${change}`);
  if (comparison.notes.length > 0)
    lines.push("", ...comparison.notes.map((note) => `note: ${note}`));
  return `${lines.join("\n")}\n`;
}
