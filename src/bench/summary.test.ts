import { describe, expect, it } from "vitest";
import { computeRatios, median, ratiosByWorld, spread, summarise } from "./summary.js";
import { benchRun } from "./testing/bench-run.js";
import type { BenchRun, BenchStrategy } from "./types.js";

function run(
  strategy: BenchStrategy,
  world: string,
  seed: number,
  figures: Partial<BenchRun>,
): BenchRun {
  return benchRun({ strategy, world, seed, totalWallMs: 1200, totalRollouts: 140, ...figures });
}

describe("median and spread", () => {
  it("takes the middle value, or the mean of the two middle values", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it("ignores missing values in a spread", () => {
    expect(spread([0.9, null, 0.5, 0.7])).toEqual({ median: 0.7, min: 0.5, max: 0.9, n: 3 });
    expect(spread([null])).toBeNull();
  });
});

describe("summarise", () => {
  it("summarises each figure per strategy over worlds and seeds", () => {
    const summary = summarise([
      run("ecdysis", "w1", 1, { wallMs: 100, patternPurity: 1 }),
      run("ecdysis", "w1", 2, { wallMs: 300, patternPurity: 0.5 }),
      run("ecdysis", "w2", 1, { wallMs: 200, patternPurity: null }),
      run("sampling", "w1", 1, { wallMs: 50 }),
    ]);
    expect(summary.ecdysis.wallMs).toEqual({ median: 200, min: 100, max: 300, n: 3 });
    expect(summary.ecdysis.patternPurity).toEqual({ median: 0.75, min: 0.5, max: 1, n: 2 });
    expect(summary.sampling.patternPurity).toBeNull();
    expect(Object.keys(summary)).toEqual(["ecdysis", "sampling"]);
  });
});

describe("computeRatios", () => {
  const runs = [
    run("ecdysis", "w1", 1, { wallMs: 100, rollouts: 50, heldoutAccuracy: 0.8 }),
    run("iterative", "w1", 1, { wallMs: 400, rollouts: 200, heldoutAccuracy: 0.6 }),
    run("sampling", "w1", 1, { heldoutAccuracy: 0.5 }),
    run("ecdysis", "w1", 2, { wallMs: 100, rollouts: 100, heldoutAccuracy: 0.7 }),
    run("iterative", "w1", 2, { wallMs: 200, rollouts: 100, heldoutAccuracy: 0.7 }),
    run("sampling", "w1", 2, { heldoutAccuracy: 0.6 }),
    run("ecdysis", "w2", 1, { wallMs: 100, rollouts: 100, heldoutAccuracy: 0.6 }),
    run("iterative", "w2", 1, { wallMs: 100, rollouts: 100, heldoutAccuracy: 0.8 }),
    run("sampling", "w2", 1, { heldoutAccuracy: 0.7 }),
  ];

  it("takes the median of per-pair figures over world × seed", () => {
    const ratios = computeRatios(runs);
    expect(ratios.wallTimeIterativeOverEcdysis).toBe(2);
    expect(ratios.rolloutsIterativeOverEcdysis).toBe(1);
    expect(ratios.heldoutDiffEcdysisMinusIterative).toBeCloseTo(0);
    expect(ratios.heldoutRelativeGainOverIterative).toBeCloseTo(0);
    expect(ratios.heldoutDiffEcdysisMinusSampling).toBeCloseTo(0.1);
    expect(ratios.pairs).toBe(3);
  });

  it("computes the same ratios per world", () => {
    const byWorld = ratiosByWorld(runs);
    expect(byWorld.w1.wallTimeIterativeOverEcdysis).toBe(3);
    expect(byWorld.w1.heldoutRelativeGainOverIterative).toBeCloseTo((0.2 / 0.6 + 0) / 2);
    expect(byWorld.w2.heldoutDiffEcdysisMinusIterative).toBeCloseTo(-0.2);
  });

  it("has no ratio when a strategy is missing or a denominator is zero", () => {
    const ratios = computeRatios([
      run("ecdysis", "w", 1, { wallMs: 0, heldoutAccuracy: 0.5 }),
      run("iterative", "w", 1, { wallMs: 10, heldoutAccuracy: 0 }),
    ]);
    expect(ratios.wallTimeIterativeOverEcdysis).toBeNull();
    expect(ratios.heldoutRelativeGainOverIterative).toBeNull();
    expect(ratios.heldoutDiffEcdysisMinusIterative).toBe(0.5);
    expect(ratios.heldoutDiffEcdysisMinusSampling).toBeNull();
  });
});
