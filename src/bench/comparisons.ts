import { bootstrapMedian, bootstrapRng } from "./bootstrap.js";
import { pairFigures } from "./heldout-trajectory.js";
import type {
  BenchRun,
  BenchStrategy,
  Comparison,
  ComparisonFigures,
  Estimate,
  PairFigures,
  RefinerVariant,
  SpendMatch,
} from "./types.js";

/**
 * The comparisons a bench reports, left versus right: the headline (Ecdysis against the
 * GEPA-style baseline and against sampling) and the decomposition (Ecdysis without its
 * pipelining against both).
 */
const comparedArms: readonly [BenchStrategy, BenchStrategy][] = [
  ["ecdysis", "iterative"],
  ["ecdysis", "sampling"],
  ["ecdysis-serial", "iterative"],
  ["ecdysis", "ecdysis-serial"],
];

/** Scope name of the comparison over every world. */
export const allWorlds = "all worlds";

/** Bootstrap settings: resamples per interval and the seed every interval's stream derives from. */
export interface BootstrapSettings {
  resamples: number;
  seed: number;
}

/**
 * Every comparison the runs allow: for each budget, refiner variant and compared pair of arms
 * that both ran, over all worlds and per world. Pairs are the world × seed runs of both arms.
 */
export function computeComparisons(
  runs: readonly BenchRun[],
  bootstrap: BootstrapSettings,
): Comparison[] {
  const comparisons: Comparison[] = [];
  const budgets = [...new Set(runs.map((run) => run.budgetEvals))].sort((a, b) => a - b);
  const refiners = [...new Set(runs.map((run) => run.refiner))].sort();
  for (const budgetEvals of budgets) {
    for (const refiner of refiners) {
      for (const [left, right] of comparedArms) {
        const pairs = pairRuns({ runs, budgetEvals, refiner, left, right });
        if (pairs.length === 0) continue;
        const worlds = [...new Set(pairs.map((pair) => pair.world))];
        for (const scope of [allWorlds, ...worlds]) {
          const scoped = scope === allWorlds ? pairs : pairs.filter((pair) => pair.world === scope);
          const key = `${budgetEvals}|${refiner}|${left}|${right}|${scope}`;
          comparisons.push({
            left,
            right,
            budgetEvals,
            refiner,
            scope,
            pairs: scoped,
            figures: summarisePairs(scoped, { ...bootstrap, key }),
          });
        }
      }
    }
  }
  return comparisons;
}

function pairRuns(options: {
  runs: readonly BenchRun[];
  budgetEvals: number;
  refiner: RefinerVariant;
  left: BenchStrategy;
  right: BenchStrategy;
}): PairFigures[] {
  const { runs, budgetEvals, refiner } = options;
  const scoped = runs.filter((run) => run.budgetEvals === budgetEvals && run.refiner === refiner);
  const key = (run: BenchRun) => `${run.world}\u0000${run.seed}`;
  const rights = new Map(
    scoped.filter((run) => run.strategy === options.right).map((run) => [key(run), run]),
  );
  return scoped
    .filter((run) => run.strategy === options.left)
    .flatMap((left) => {
      const right = rights.get(key(left));
      return right ? [pairFigures({ left, right })] : [];
    });
}

/** Medians with bootstrap intervals of every figure over a set of pairs. */
function summarisePairs(
  pairs: readonly PairFigures[],
  bootstrap: BootstrapSettings & { key: string },
): ComparisonFigures {
  const estimate = (figure: string, pick: (pair: PairFigures) => number | null) =>
    bootstrapMedian({
      values: pairs.flatMap((pair) => {
        const value = pick(pair);
        return value === null || !Number.isFinite(value) ? [] : [{ stratum: pair.world, value }];
      }),
      resamples: bootstrap.resamples,
      rng: bootstrapRng(bootstrap.seed, `${bootstrap.key}|${figure}`),
    });
  const forward = pairs.flatMap((pair) => (pair.timeToMatch ? [pair.timeToMatch] : []));
  const reverse = pairs.flatMap((pair) => (pair.reverse ? [pair.reverse] : []));
  return {
    timeToMatch: estimate("timeToMatch", (pair) =>
      pair.timeToMatch && pair.timeToMatch.status !== "no-target" ? pair.timeToMatch.ratio : null,
    ),
    timeToMatchNotReached: forward.filter((match) => match.status === "not-reached").length,
    timeToMatchNoTarget: forward.filter((match) => match.status === "no-target").length,
    reverseTimeToMatch: estimate("reverse", (pair) =>
      pair.reverse?.status === "matched" ? pair.reverse.ratio : null,
    ),
    reverseReached: reverse.filter((match) => match.status === "matched").length,
    reverseNotReached: reverse.filter((match) => match.status === "not-reached").length,
    reverseNoTarget: reverse.filter((match) => match.status === "no-target").length,
    aucDiff: estimate("aucDiff", (pair) => pair.aucDiff),
    wallRatio: estimate("wallRatio", (pair) => pair.wallRatio),
    rolloutsRatio: estimate("rolloutsRatio", (pair) => pair.rolloutsRatio),
    heldoutDiff: estimate("heldoutDiff", (pair) => pair.heldoutDiff),
    ...spendEstimates(estimate),
  };
}

/**
 * The time-to-match counted in training rollouts and LLM calls, both ways, under the rules of
 * the wall-time figures: forward not-reached counts 0×, no-target is left out; the reverse is
 * over the pairs where the baseline got there. A pair without recorded spend is left out.
 */
function spendEstimates(
  estimate: (figure: string, pick: (pair: PairFigures) => number | null) => Estimate | null,
) {
  const forward = (match: SpendMatch | null) =>
    match && match.status !== "no-target" ? match.ratio : null;
  const reverse = (match: SpendMatch | null) => (match?.status === "matched" ? match.ratio : null);
  return {
    timeToMatchRollouts: estimate("timeToMatchRollouts", (pair) =>
      forward(pair.timeToMatchRollouts),
    ),
    timeToMatchLlmCalls: estimate("timeToMatchLlmCalls", (pair) =>
      forward(pair.timeToMatchLlmCalls),
    ),
    reverseTimeToMatchRollouts: estimate("reverseRollouts", (pair) =>
      reverse(pair.reverseRollouts),
    ),
    reverseTimeToMatchLlmCalls: estimate("reverseLlmCalls", (pair) =>
      reverse(pair.reverseLlmCalls),
    ),
  };
}

/** The scopes a bench reports, in order: all worlds, then each world. */
export function benchScopes(result: { worlds: readonly { name: string }[] }): string[] {
  return [allWorlds, ...result.worlds.map((world) => world.name)];
}

/** The comparison of left versus right on a scope, budget and refiner variant, if it was made. */
export function findComparison(
  comparisons: readonly Comparison[],
  query: {
    left: BenchStrategy;
    right: BenchStrategy;
    budgetEvals: number;
    refiner?: RefinerVariant;
    scope?: string;
  },
): Comparison | undefined {
  return comparisons.find(
    (comparison) =>
      comparison.left === query.left &&
      comparison.right === query.right &&
      comparison.budgetEvals === query.budgetEvals &&
      comparison.refiner === (query.refiner ?? "world") &&
      comparison.scope === (query.scope ?? allWorlds),
  );
}
