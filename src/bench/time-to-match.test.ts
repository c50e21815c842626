import { describe, expect, it } from "vitest";
import { computeRatios } from "./summary.js";
import { benchRun } from "./testing/bench-run.js";
import {
  bestAccuracy,
  summariseTimeToMatch,
  timeToMatch,
  timeToMatchPairs,
} from "./time-to-match.js";
import type { BenchRun, BenchStrategy } from "./types.js";

type Point = [elapsedMs: number, accuracy: number];

function run(options: {
  strategy: BenchStrategy;
  world?: string;
  seed?: number;
  seedAccuracy?: number | null;
  points?: Point[];
  wallMs?: number;
  tasks?: number;
}): BenchRun {
  const points = options.points ?? [];
  return benchRun({
    strategy: options.strategy,
    world: options.world ?? "w",
    seed: options.seed ?? 1,
    wallMs: options.wallMs ?? 10_000,
    totalWallMs: 12_000,
    totalRollouts: 140,
    trainTasks: 40,
    seedTrainAccuracy: 0.4,
    seedHeldoutAccuracy: 0.4,
    acceptedEdits: points.length,
    trajectory: points.map(([elapsedMs, accuracy], index) => ({
      iteration: index + 1,
      elapsedMs,
      accuracy,
      tasks: options.tasks ?? 40,
    })),
    trajectorySeedAccuracy: options.seedAccuracy === undefined ? 0.4 : options.seedAccuracy,
  });
}

describe("timeToMatch", () => {
  it("compares the times to first reach iterative's best train accuracy, not total times", () => {
    // Iterative climbs slowly and keeps searching to budget; Ecdysis overshoots early and stops.
    const iterative = run({
      strategy: "iterative",
      wallMs: 9000,
      points: [
        [2000, 0.5],
        [6000, 0.6],
      ],
    });
    const ecdysis = run({
      strategy: "ecdysis",
      wallMs: 12_000,
      points: [
        [1500, 0.55],
        [3000, 0.8],
      ],
    });
    const pair = timeToMatch({ ecdysis, iterative });
    expect(pair).toMatchObject({
      target: 0.6,
      iterativeMs: 6000,
      ecdysisMs: 3000,
      ratio: 2,
      status: "matched",
      fullTrainSplit: true,
    });
    // The total-time ratio of the same pair says the opposite.
    expect(iterative.wallMs / ecdysis.wallMs).toBeLessThan(1);
  });

  it("takes iterative's first arrival at its best (a later equal point does not count)", () => {
    const iterative = run({
      strategy: "iterative",
      points: [
        [1000, 0.7],
        [5000, 0.7],
      ],
    });
    const ecdysis = run({ strategy: "ecdysis", points: [[700, 0.7]] });
    expect(timeToMatch({ ecdysis, iterative })).toMatchObject({
      iterativeMs: 1000,
      ratio: 1000 / 700,
    });
  });

  it("marks a pair Ecdysis never matched as a failure with ratio 0", () => {
    const pair = timeToMatch({
      iterative: run({ strategy: "iterative", points: [[4000, 0.9]] }),
      ecdysis: run({ strategy: "ecdysis", points: [[1000, 0.85]] }),
    });
    expect(pair).toMatchObject({ target: 0.9, ecdysisMs: null, ratio: 0, status: "not-reached" });
  });

  it("has no target when iterative never rose above the seed harness", () => {
    const pair = timeToMatch({
      iterative: run({ strategy: "iterative", points: [] }),
      ecdysis: run({ strategy: "ecdysis", points: [[1000, 0.8]] }),
    });
    expect(pair).toMatchObject({ target: 0.4, ratio: null, status: "no-target" });
  });

  it("flags trajectories measured on a batch smaller than the train split", () => {
    const pair = timeToMatch({
      iterative: run({ strategy: "iterative", points: [[4000, 0.6]] }),
      ecdysis: run({ strategy: "ecdysis", points: [[1000, 0.7]], tasks: 20 }),
    });
    expect(pair.fullTrainSplit).toBe(false);
    expect(pair.status).toBe("matched");
  });

  it("is null without any measurement", () => {
    expect(bestAccuracy(run({ strategy: "iterative", seedAccuracy: null }))).toBeNull();
  });
});

describe("summariseTimeToMatch", () => {
  it("takes the median over pairs with a target, counting failures as 0", () => {
    const runs = [
      // w1: matched, ratio 3
      run({ strategy: "iterative", world: "w1", points: [[3000, 0.6]] }),
      run({ strategy: "ecdysis", world: "w1", points: [[1000, 0.6]] }),
      // w2: not reached → 0
      run({ strategy: "iterative", world: "w2", points: [[3000, 0.9]] }),
      run({ strategy: "ecdysis", world: "w2", points: [[1000, 0.6]] }),
      // w3: matched, ratio 0.5
      run({ strategy: "iterative", world: "w3", points: [[1000, 0.6]] }),
      run({ strategy: "ecdysis", world: "w3", points: [[2000, 0.7]] }),
      // w4: iterative improved nothing → left out
      run({ strategy: "iterative", world: "w4" }),
      run({ strategy: "ecdysis", world: "w4", points: [[100, 0.9]] }),
    ];
    const pairs = timeToMatchPairs(runs);
    expect(pairs.map((pair) => pair.status)).toEqual([
      "matched",
      "not-reached",
      "matched",
      "no-target",
    ]);
    expect(summariseTimeToMatch(pairs)).toEqual({
      median: 0.5,
      pairs: 3,
      failures: 1,
      noTarget: 1,
    });
    const ratios = computeRatios(runs);
    expect(ratios.timeToMatchIterativeOverEcdysis).toBe(0.5);
    expect(ratios.timeToMatchFailures).toBe(1);
    expect(ratios.timeToMatchNoTarget).toBe(1);
    expect(ratios.timeToMatchPairs).toBe(3);
  });

  it("has no median when no pair has a target", () => {
    expect(summariseTimeToMatch([])).toEqual({ median: null, pairs: 0, failures: 0, noTarget: 0 });
  });
});
