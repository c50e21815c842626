import type { BenchRun, Match, PairFigures, ProbeTrajectory } from "./types.js";

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

/**
 * Time for both runs to reach `target`, the best of the run named by `owner`. Ratio = right's
 * time / left's time (> 1: left was faster). A target no better than both seed harnesses is
 * `no-target`. When the other run never reached it, `not-reached`: the ratio is 0 when left is
 * the chaser (a failure of left's speed claim) and null when right is (right never got there).
 */
export function matchTarget(options: {
  left: ProbeTrajectory;
  right: ProbeTrajectory;
  owner: "left" | "right";
}): Match {
  const { left, right, owner } = options;
  const target = bestAccuracy(owner === "left" ? left : right);
  const seed = Math.max(left.points[0].accuracy, right.points[0].accuracy);
  const leftMs = firstReach(left, target);
  const rightMs = firstReach(right, target);
  if (target <= seed + epsilon)
    return { target, leftMs, rightMs, ratio: null, status: "no-target" };
  if (leftMs === null) return { target, leftMs, rightMs, ratio: 0, status: "not-reached" };
  if (rightMs === null) return { target, leftMs, rightMs, ratio: null, status: "not-reached" };
  return {
    target,
    leftMs,
    rightMs,
    ratio: leftMs > 0 ? rightMs / leftMs : null,
    status: "matched",
  };
}

/**
 * Every figure of left versus right on one world × seed: held-out time-to-match both ways, the
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
    };
  }
  const horizon = Math.max(left.wallMs, right.wallMs);
  return {
    ...base,
    timeToMatch: matchTarget({ left: left.probe, right: right.probe, owner: "right" }),
    reverse: matchTarget({ left: left.probe, right: right.probe, owner: "left" }),
    aucDiff: meanAccuracy(left.probe, horizon) - meanAccuracy(right.probe, horizon),
    wallRatio: left.wallMs > 0 ? right.wallMs / left.wallMs : null,
    rolloutsRatio: left.rollouts > 0 ? right.rollouts / left.rollouts : null,
  };
}
