import { formatEstimate } from "./claims.js";
import { formatters } from "./comparison-markdown.js";
import { benchScopes, findComparison } from "./comparisons.js";
import type { BenchResult, BenchRun } from "./types.js";

/** How the time-to-match is counted in its three units, for bench.md and the README section. */
export const threeUnitDefinition =
  "*In three units*: the same held-out time-to-match (the same A*, first-reach rule, 0× for a pair where Ecdysis never reached A*, no-target pairs left out) with each arm's cost counted three ways: training wall time, and the training rollouts and LLM calls spent through the iteration that made its first harness at A* current (summed from the run's journal). Pipelining shortens wall time, not rollouts or calls; a pair whose runs recorded no spend is left out of those two (n says how many remain).";

/**
 * The held-out time-to-match iterative / Ecdysis at one budget in wall time, training rollouts
 * and LLM calls, both ways: one row for all worlds, then one per world.
 */
export function threeUnitTable(result: BenchResult, budgetEvals: number): string {
  const scopes = benchScopes(result);
  const ratio = formatters.ratio;
  const rows = scopes.flatMap((scope) => {
    const comparison = findComparison(result.comparisons, {
      left: "ecdysis",
      right: "iterative",
      budgetEvals,
      scope,
    });
    if (!comparison) return [];
    const x = comparison.figures;
    const reverse = `${x.reverseReached} of ${x.reverseReached + x.reverseNotReached}`;
    return [
      [
        scope,
        `${x.timeToMatch?.n ?? 0} / ${x.timeToMatchNotReached} / ${x.timeToMatchNoTarget}`,
        formatEstimate(x.timeToMatch, ratio),
        `${formatEstimate(x.timeToMatchRollouts, ratio)}${pairsOf(x.timeToMatchRollouts?.n, x.timeToMatch?.n)}`,
        `${formatEstimate(x.timeToMatchLlmCalls, ratio)}${pairsOf(x.timeToMatchLlmCalls?.n, x.timeToMatch?.n)}`,
        reverse,
        formatEstimate(x.reverseTimeToMatch, ratio),
        formatEstimate(x.reverseTimeToMatchRollouts, ratio),
        formatEstimate(x.reverseTimeToMatchLlmCalls, ratio),
      ].join(" | "),
    ];
  });
  if (rows.length === 0) return "No world × seed had both Ecdysis and iterative at this budget.";
  return [
    "| scope | pairs / not reached / no target | time-to-match iterative / Ecdysis: wall time | training rollouts | LLM calls | iterative reached Ecdysis's best | reverse: wall time | training rollouts | LLM calls |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/** ` (n pairs)` when a spend figure covers fewer pairs than the wall-time one. */
function pairsOf(n: number | undefined, wallN: number | undefined): string {
  return n !== undefined && n !== wallN ? ` (${n} pairs)` : "";
}

/** Why one run stopped, what it left and what ground truth says it left unfixed. */
function noEditText(run: BenchRun): string {
  const unspent = `${run.unspentRollouts} of ${run.budgetRollouts} rollouts unspent`;
  const left =
    run.heldoutSystematicTasks === null
      ? "systematic deficiencies left: not recorded (no ground truth in this record)"
      : `${run.heldoutSystematicTasks} of ${run.heldoutTasks} held-out tasks with a systematic deficiency left`;
  return `seed ${run.seed}: stopped by ${run.stoppedBy}, ${unspent}; ${left}`;
}

/**
 * Runs of a training arm that ended with no accepted edit, per budget, world and arm: how many,
 * how many of them left a systematic deficiency on the held-out split (from ground truth), and
 * for each why it stopped. Sampling accepts nothing by design and is left out.
 */
export function noEditTable(runs: readonly BenchRun[]): string {
  const idle = runs.filter((run) => run.strategy !== "sampling" && run.acceptedEdits === 0);
  if (idle.length === 0) return "No Ecdysis or iterative run ended with no accepted edit.";
  const groups = new Map<string, BenchRun[]>();
  for (const run of runs) {
    if (run.strategy === "sampling") continue;
    const arm = run.strategy + (run.refiner === "neutral" ? " (neutral refiner)" : "");
    const key = `${run.budgetEvals}\u0000${run.world}\u0000${arm}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const rows = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }))
    .flatMap(([key, group]) => {
      const none = group.filter((run) => run.acceptedEdits === 0);
      if (none.length === 0) return [];
      const known = none.filter((run) => run.heldoutSystematicTasks !== null);
      const left = known.filter((run) => (run.heldoutSystematicTasks ?? 0) > 0).length;
      const leftText =
        known.length === none.length ? String(left) : `${left} of ${known.length} known`;
      const [budget, world, arm] = key.split("\u0000");
      const why = none.map(noEditText).join("; ");
      return [
        `| ${budget} | ${world} | ${arm} | ${none.length} of ${group.length} | ${leftText} | ${why} |`,
      ];
    });
  return [
    "| budget | world | arm | runs with no accepted edit | of them, a systematic deficiency left on held-out | why each stopped |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
