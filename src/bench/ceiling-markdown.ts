import type { Reach } from "./ceiling.js";
import { formatters } from "./comparison-markdown.js";
import type { BenchRun } from "./types.js";

/** How the ceiling figures are defined, for bench.md. */
export const ceilingDefinition =
  "The *ceiling* of a world × seed is computed from ground truth, not measured: the expected held-out accuracy of the best harness the world allows (every systematic deficiency fixed, nothing item-specific: an item slip never passes, a prompt-sensitive item counts one half). *Final / ceiling* is each run's final held-out accuracy over it; *reached 90%* / *95%* is the first point of the held-out probe at or above that share of it — how many runs got there, and their median training wall time, training rollouts and LLM calls through the iteration that made that harness current. A prompt that happens to pass more borderline items can go above 100%.";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function reachCell(runs: BenchRun[], pick: (run: BenchRun) => Reach | null): string {
  const got = runs.flatMap((run) => {
    const reach = pick(run);
    return reach ? [reach] : [];
  });
  if (got.length === 0) return `0 of ${runs.length}`;
  const wall = formatters.seconds(median(got.map((item) => item.wallMs)));
  const rollouts = formatters.count(median(got.map((item) => item.rollouts)));
  const calls = formatters.count(median(got.map((item) => item.llmCalls)));
  return `${got.length} of ${runs.length}: ${wall}, ${rollouts} rollouts, ${calls} calls`;
}

/**
 * Every arm against the ceiling, per budget, world and arm (then over all worlds): the ceiling,
 * the final held-out accuracy's share of it (median, lowest), and the time to 90% and 95% of it
 * in training wall time, rollouts and LLM calls. Runs without a ceiling (an older bench.json, a
 * world without held-out truth) are left out.
 */
export function ceilingTable(runs: readonly BenchRun[]): string {
  const scored = runs.filter((run) => run.ceiling !== null && run.ceilingShare !== null);
  if (scored.length === 0) return "No run has a ceiling (no held-out ground truth).";
  const groups = new Map<string, BenchRun[]>();
  const add = (key: string, run: BenchRun) => groups.set(key, [...(groups.get(key) ?? []), run]);
  for (const run of scored) {
    const arm = run.strategy + (run.refiner === "neutral" ? " (neutral refiner)" : "");
    add(`${run.budgetEvals}\u0000${run.world}\u0000${arm}`, run);
    add(`${run.budgetEvals}\u0000~all worlds\u0000${arm}`, run);
  }
  const rows = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .map(([key, group]) => {
      const [budget, world, arm] = key.split("\u0000");
      const shares = group.map((run) => run.ceilingShare as number);
      return [
        budget,
        world.replace("~", ""),
        arm,
        formatters.accuracy(median(group.map((run) => run.ceiling as number))),
        `${formatters.accuracy(median(shares))} (lowest ${formatters.accuracy(Math.min(...shares))})`,
        reachCell(group, (run) => run.reach90),
        reachCell(group, (run) => run.reach95),
      ].join(" | ");
    });
  return [
    "| budget | world | arm | ceiling (median) | final / ceiling (median, lowest) | reached 90% of it: runs, median wall, rollouts, LLM calls | reached 95% |",
    "|---|---|---|---|---|---|---|",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}
