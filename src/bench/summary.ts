import { median } from "./bootstrap.js";
import { type ArmSummary, type BenchRun, benchFigures, type Spread } from "./types.js";

/** Median, minimum and maximum of the finite values; null when there are none. */
export function spread(values: (number | null)[]): Spread | null {
  const finite = values.filter(
    (value): value is number => value !== null && Number.isFinite(value),
  );
  const middle = median(finite);
  if (middle === null) return null;
  return { median: middle, min: Math.min(...finite), max: Math.max(...finite), n: finite.length };
}

/**
 * Per arm, budget and refiner variant (in the order the runs came), the spread of every reported
 * figure over its worlds and seeds, and how often each stop reason ended a run.
 */
export function summariseArms(runs: readonly BenchRun[], world?: string): ArmSummary[] {
  const groups = new Map<string, BenchRun[]>();
  for (const run of runs) {
    if (world !== undefined && run.world !== world) continue;
    const key = `${run.budgetEvals}\u0000${run.refiner}\u0000${run.strategy}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups.values()].map((group) => {
    const figures: Record<string, Spread | null> = {};
    for (const figure of benchFigures) figures[figure] = spread(group.map((run) => run[figure]));
    const stoppedBy: Record<string, number> = {};
    for (const run of group) stoppedBy[run.stoppedBy] = (stoppedBy[run.stoppedBy] ?? 0) + 1;
    return {
      strategy: group[0].strategy,
      refiner: group[0].refiner,
      budgetEvals: group[0].budgetEvals,
      runs: group.length,
      figures,
      stoppedBy,
    };
  });
}
