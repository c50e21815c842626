import { median } from "./summary.js";
import type { BenchRun, TimeToMatchPair } from "./types.js";

/** Accuracies closer than this are equal (they are ratios of small counts). */
const epsilon = 1e-9;

/** Training time of the first trajectory point at or above `target`; null when none is. */
export function firstReach(run: BenchRun, target: number): number | null {
  const point = run.trajectory.find((entry) => entry.accuracy >= target - epsilon);
  return point ? point.elapsedMs : null;
}

/** Best accuracy a run's search measured: its seed point or any accepted step. */
export function bestAccuracy(run: BenchRun): number | null {
  const values = [
    ...(run.trajectorySeedAccuracy === null ? [] : [run.trajectorySeedAccuracy]),
    ...run.trajectory.map((point) => point.accuracy),
  ];
  return values.length === 0 ? null : Math.max(...values);
}

function coversTrain(run: BenchRun): boolean {
  return run.trajectory.every((point) => run.trainTasks === 0 || point.tasks >= run.trainTasks);
}

/**
 * Time-to-match of one world × seed. A* is iterative's best train accuracy during its search;
 * T_iter its training time when it first reached A*; T_ecd Ecdysis's training time when it first
 * reached ≥ A*. Ratio T_iter / T_ecd; 0 when Ecdysis never reached A* (a failure of the claim).
 * When A* is no higher than the seed harness's accuracy (iterative accepted nothing), there is
 * no quality to match and the pair is `no-target`.
 */
export function timeToMatch(options: { ecdysis: BenchRun; iterative: BenchRun }): TimeToMatchPair {
  const { ecdysis, iterative } = options;
  const base = {
    world: iterative.world,
    seed: iterative.seed,
    fullTrainSplit: coversTrain(ecdysis) && coversTrain(iterative),
  };
  const target = bestAccuracy(iterative);
  const seeds = [iterative.trajectorySeedAccuracy, ecdysis.trajectorySeedAccuracy].filter(
    (value): value is number => value !== null,
  );
  const seedBest = seeds.length > 0 ? Math.max(...seeds) : null;
  if (target === null || seedBest === null || target <= seedBest + epsilon) {
    return {
      ...base,
      target,
      iterativeMs: null,
      ecdysisMs: null,
      ratio: null,
      status: "no-target",
    };
  }
  const iterativeMs = firstReach(iterative, target);
  if (iterativeMs === null) {
    // A* above the seed comes from an accepted step; without its time the run had no timing.
    return { ...base, target, iterativeMs, ecdysisMs: null, ratio: null, status: "no-timing" };
  }
  const ecdysisMs = firstReach(ecdysis, target);
  if (ecdysisMs === null) {
    return { ...base, target, iterativeMs, ecdysisMs, ratio: 0, status: "not-reached" };
  }
  return {
    ...base,
    target,
    iterativeMs,
    ecdysisMs,
    ratio: ecdysisMs > 0 ? iterativeMs / ecdysisMs : null,
    status: "matched",
  };
}

/** Time-to-match for every world × seed where both Ecdysis and iterative ran. */
export function timeToMatchPairs(runs: BenchRun[]): TimeToMatchPair[] {
  const key = (run: BenchRun) => `${run.world}\u0000${run.seed}`;
  const iterative = new Map(
    runs.filter((run) => run.strategy === "iterative").map((run) => [key(run), run]),
  );
  const pairs: TimeToMatchPair[] = [];
  for (const ecdysis of runs.filter((run) => run.strategy === "ecdysis")) {
    const other = iterative.get(key(ecdysis));
    if (other) pairs.push(timeToMatch({ ecdysis, iterative: other }));
  }
  return pairs;
}

/** The headline of a set of pairs: median ratio (failures as 0) and the counts behind it. */
export interface TimeToMatchSummary {
  median: number | null;
  /** Pairs in the median (matched and not-reached). */
  pairs: number;
  failures: number;
  noTarget: number;
}

/** Median time-to-match ratio over the pairs with a target, a not-reached pair counting as 0. */
export function summariseTimeToMatch(pairs: TimeToMatchPair[]): TimeToMatchSummary {
  const counted = pairs.filter(
    (pair) => (pair.status === "matched" || pair.status === "not-reached") && pair.ratio !== null,
  );
  return {
    median: median(counted.map((pair) => pair.ratio as number)),
    pairs: counted.length,
    failures: pairs.filter((pair) => pair.status === "not-reached").length,
    noTarget: pairs.filter((pair) => pair.status === "no-target").length,
  };
}
