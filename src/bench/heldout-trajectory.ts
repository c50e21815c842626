import type {
  BenchRun,
  Match,
  PairFigures,
  ProbePoint,
  ProbeTrajectory,
  SpendMatch,
} from "./types.js";

/** Accuracies closer than this are equal (they are ratios of small counts). */
const epsilon = 1e-9;

/** Probe accuracy of the harness in force at training time `ms` (a step function). */
export function accuracyAt(probe: ProbeTrajectory, ms: number): number {
  let accuracy = probe.points[0].accuracy;
  for (const point of probe.points) if (point.elapsedMs <= ms) accuracy = point.accuracy;
  return accuracy;
}

/** Training time from which the harness in force first reached `target`; null when it never did. */
export function firstReach(probe: ProbeTrajectory, target: number): number | null {
  const point = probe.points.find((entry) => entry.accuracy >= target - epsilon);
  return point ? point.elapsedMs : null;
}

/** Best probe accuracy any harness in force reached during the run (the seed harness included). */
export function bestAccuracy(probe: ProbeTrajectory): number {
  return Math.max(...probe.points.map((point) => point.accuracy));
}

/**
 * Mean probe accuracy over training time [0, horizon]: the area under the accuracy-versus-time
 * step function divided by the horizon. After a run stops, its last harness stays in force, so
 * two runs of different lengths are compared over the same horizon.
 */
export function meanAccuracy(probe: ProbeTrajectory, horizon: number): number {
  if (horizon <= 0) return probe.points[0].accuracy;
  let area = 0;
  const points = [...probe.points].sort((a, b) => a.elapsedMs - b.elapsedMs);
  for (let index = 0; index < points.length; index++) {
    const from = Math.min(Math.max(points[index].elapsedMs, 0), horizon);
    const to = index + 1 < points.length ? Math.min(points[index + 1].elapsedMs, horizon) : horizon;
    if (to > from) area += (to - from) * points[index].accuracy;
  }
  // Before the first point (always 0 ms for a measured run) the seed harness is in force.
  const start = Math.min(points[0].elapsedMs, horizon);
  if (start > 0) area += start * points[0].accuracy;
  return area / horizon;
}

/** A coordinate of a probe point: training wall time, or the spend that made its harness current. */
type Cost = (point: ProbePoint) => number | undefined;

/**
 * Both runs' cost to reach `target`, the best of the run named by `owner`, with the cost read
 * off each run's first probe point at or above it. Ratio = right's cost / left's (> 1: left got
 * there cheaper). A target no better than both seed harnesses is `no-target`. When the other
 * run never reached it, `not-reached`: the ratio is 0 when left is the chaser (a failure of
 * left's speed claim) and null when right is (right never got there).
 */
function matchBy(options: {
  left: ProbeTrajectory;
  right: ProbeTrajectory;
  owner: "left" | "right";
  cost: Cost;
}): SpendMatch {
  const { left, right, owner, cost } = options;
  const target = bestAccuracy(owner === "left" ? left : right);
  const seed = Math.max(left.points[0].accuracy, right.points[0].accuracy);
  const reach = (probe: ProbeTrajectory) => {
    const point = probe.points.find((entry) => entry.accuracy >= target - epsilon);
    return point ? (cost(point) ?? null) : null;
  };
  const leftCost = reach(left);
  const rightCost = reach(right);
  const base = { target, left: leftCost, right: rightCost };
  if (target <= seed + epsilon) return { ...base, ratio: null, status: "no-target" };
  if (leftCost === null) return { ...base, ratio: 0, status: "not-reached" };
  if (rightCost === null) return { ...base, ratio: null, status: "not-reached" };
  return { ...base, ratio: leftCost > 0 ? rightCost / leftCost : null, status: "matched" };
}

/** Time for both runs to reach `target`, the best of the run named by `owner` (see `matchBy`). */
export function matchTarget(options: {
  left: ProbeTrajectory;
  right: ProbeTrajectory;
  owner: "left" | "right";
}): Match {
  const match = matchBy({ ...options, cost: (point) => point.elapsedMs });
  const { target, ratio, status } = match;
  return { target, leftMs: match.left, rightMs: match.right, ratio, status };
}

/**
 * The same match counted in training rollouts or LLM calls through the iteration that made
 * each first-reaching harness current. Null when a probe point of either run has no recorded
 * spend (a run without a journal, or an older record): a figure not measured is not made up.
 */
export function spendMatch(options: {
  left: ProbeTrajectory;
  right: ProbeTrajectory;
  owner: "left" | "right";
  unit: "rollouts" | "llmCalls";
}): SpendMatch | null {
  const { left, right, unit } = options;
  const recorded = (probe: ProbeTrajectory) =>
    probe.points.every((point) => point[unit] !== undefined);
  if (!recorded(left) || !recorded(right)) return null;
  return matchBy({ ...options, cost: (point) => point[unit] });
}

/**
 * Every figure of left versus right on one world × seed: held-out time-to-match both ways (in
 * training wall time, and in training rollouts and LLM calls when both runs recorded them), the
 * difference of mean probe accuracy over the common horizon (the longer run's training time),
 * the training-time and rollout ratios (right / left) and the final held-out difference
 * (left − right). Speed figures need both probe trajectories; an arm without training
 * (`sampling`) has none, and only its held-out difference is compared.
 */
export function pairFigures(options: { left: BenchRun; right: BenchRun }): PairFigures {
  const { left, right } = options;
  const base = {
    world: left.world,
    seed: left.seed,
    heldoutDiff: left.heldoutAccuracy - right.heldoutAccuracy,
  };
  if (!left.probe || !right.probe) {
    return {
      ...base,
      timeToMatch: null,
      reverse: null,
      aucDiff: null,
      wallRatio: null,
      rolloutsRatio: null,
      timeToMatchRollouts: null,
      timeToMatchLlmCalls: null,
      reverseRollouts: null,
      reverseLlmCalls: null,
    };
  }
  const horizon = Math.max(left.wallMs, right.wallMs);
  const probes = { left: left.probe, right: right.probe };
  return {
    ...base,
    timeToMatchRollouts: spendMatch({ ...probes, owner: "right", unit: "rollouts" }),
    timeToMatchLlmCalls: spendMatch({ ...probes, owner: "right", unit: "llmCalls" }),
    reverseRollouts: spendMatch({ ...probes, owner: "left", unit: "rollouts" }),
    reverseLlmCalls: spendMatch({ ...probes, owner: "left", unit: "llmCalls" }),
    timeToMatch: matchTarget({ left: left.probe, right: right.probe, owner: "right" }),
    reverse: matchTarget({ left: left.probe, right: right.probe, owner: "left" }),
    aucDiff: meanAccuracy(left.probe, horizon) - meanAccuracy(right.probe, horizon),
    wallRatio: left.wallMs > 0 ? right.wallMs / left.wallMs : null,
    rolloutsRatio: left.rollouts > 0 ? right.rollouts / left.rollouts : null,
  };
}
