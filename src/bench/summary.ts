import { summariseTimeToMatch, timeToMatchPairs } from "./time-to-match.js";
import {
  type BenchFigure,
  type BenchRatios,
  type BenchRun,
  type BenchStrategy,
  benchFigures,
  type Spread,
  type StrategySummary,
} from "./types.js";

/** Median of a list (mean of the two middle values for even lengths); null for an empty list. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median, minimum and maximum of the finite values; null when there are none. */
export function spread(values: (number | null)[]): Spread | null {
  const finite = values.filter(
    (value): value is number => value !== null && Number.isFinite(value),
  );
  const middle = median(finite);
  if (middle === null) return null;
  return { median: middle, min: Math.min(...finite), max: Math.max(...finite), n: finite.length };
}

/** Per strategy, the spread of every reported figure over its runs (all worlds and seeds). */
export function summarise(runs: BenchRun[]): Record<string, StrategySummary> {
  const byStrategy = new Map<string, BenchRun[]>();
  for (const run of runs)
    byStrategy.set(run.strategy, [...(byStrategy.get(run.strategy) ?? []), run]);
  const summary: Record<string, StrategySummary> = {};
  for (const [strategy, strategyRuns] of byStrategy) {
    const figures = {} as StrategySummary;
    for (const figure of benchFigures)
      figures[figure] = spread(strategyRuns.map((run) => figureOf(run, figure)));
    summary[strategy] = figures;
  }
  return summary;
}

function figureOf(run: BenchRun, figure: BenchFigure): number | null {
  return run[figure];
}

/** The runs of two strategies on the same world and seed. */
function pairs(
  runs: BenchRun[],
  left: BenchStrategy,
  right: BenchStrategy,
): [BenchRun, BenchRun][] {
  const key = (run: BenchRun) => `${run.world}\u0000${run.seed}`;
  const rights = new Map(
    runs.filter((run) => run.strategy === right).map((run) => [key(run), run]),
  );
  const result: [BenchRun, BenchRun][] = [];
  for (const run of runs.filter((candidate) => candidate.strategy === left)) {
    const other = rights.get(key(run));
    if (other) result.push([run, other]);
  }
  return result;
}

/** Median over pairs of a per-pair figure, skipping pairs where it is undefined (division by 0). */
function medianOver<T>(items: T[], figure: (item: T) => number | null): number | null {
  return median(
    items.map(figure).filter((value): value is number => value !== null && Number.isFinite(value)),
  );
}

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator;
}

/**
 * Headline comparisons: each figure is computed per world × seed pair and then the median is
 * taken over pairs (a ratio of medians would mix worlds of different sizes). Time-to-match
 * follows its own pair rules (`summariseTimeToMatch`).
 */
export function computeRatios(runs: BenchRun[]): BenchRatios {
  const versusIterative = pairs(runs, "ecdysis", "iterative");
  const versusSampling = pairs(runs, "ecdysis", "sampling");
  const matched = summariseTimeToMatch(timeToMatchPairs(runs));
  return {
    timeToMatchIterativeOverEcdysis: matched.median,
    timeToMatchPairs: matched.pairs,
    timeToMatchFailures: matched.failures,
    timeToMatchNoTarget: matched.noTarget,
    wallTimeIterativeOverEcdysis: medianOver(versusIterative, ([e, i]) =>
      ratio(i.wallMs, e.wallMs),
    ),
    rolloutsIterativeOverEcdysis: medianOver(versusIterative, ([e, i]) =>
      ratio(i.rollouts, e.rollouts),
    ),
    heldoutDiffEcdysisMinusIterative: medianOver(
      versusIterative,
      ([e, i]) => e.heldoutAccuracy - i.heldoutAccuracy,
    ),
    heldoutRelativeGainOverIterative: medianOver(versusIterative, ([e, i]) =>
      ratio(e.heldoutAccuracy - i.heldoutAccuracy, i.heldoutAccuracy),
    ),
    heldoutDiffEcdysisMinusSampling: medianOver(
      versusSampling,
      ([e, s]) => e.heldoutAccuracy - s.heldoutAccuracy,
    ),
    pairs: Math.max(versusIterative.length, versusSampling.length),
  };
}

/** `computeRatios` for each world separately. */
export function ratiosByWorld(runs: BenchRun[]): Record<string, BenchRatios> {
  const worlds = [...new Set(runs.map((run) => run.world))];
  return Object.fromEntries(
    worlds.map((world) => [world, computeRatios(runs.filter((run) => run.world === world))]),
  );
}
