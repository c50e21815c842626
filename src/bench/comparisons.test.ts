import { describe, expect, it } from "vitest";
import { allWorlds, computeComparisons, findComparison } from "./comparisons.js";
import { benchRun, probe } from "./testing/bench-run.js";
import { benchRunSchema, comparisonSchema } from "./types.js";

describe("computeComparisons", () => {
  const runs = ["a", "b"].flatMap((world) =>
    [1, 2, 3].flatMap((seed) => [
      benchRun({
        strategy: "ecdysis",
        world,
        seed,
        wallMs: 1000,
        heldoutAccuracy: 0.8,
        probe: probe([
          [0, 0.4],
          [world === "a" ? 250 : 500, 0.8],
        ]),
      }),
      benchRun({
        strategy: "iterative",
        world,
        seed,
        wallMs: 2000,
        heldoutAccuracy: 0.7,
        probe: probe([
          [0, 0.4],
          [1000, 0.7],
        ]),
      }),
      benchRun({ strategy: "sampling", world, seed, heldoutAccuracy: 0.5 }),
    ]),
  );

  it("compares the arms that ran, over all worlds and per world, reproducibly", () => {
    const comparisons = computeComparisons(runs, { resamples: 200, seed: 1 });
    expect(comparisons.map((c) => `${c.left}/${c.right}/${c.scope}`)).toEqual([
      "ecdysis/iterative/all worlds",
      "ecdysis/iterative/a",
      "ecdysis/iterative/b",
      "ecdysis/sampling/all worlds",
      "ecdysis/sampling/a",
      "ecdysis/sampling/b",
    ]);
    expect(computeComparisons(runs, { resamples: 200, seed: 1 })).toEqual(comparisons);
    const all = findComparison(comparisons, {
      left: "ecdysis",
      right: "iterative",
      budgetEvals: 10,
    });
    // World a: 1000 / 250 = 4×; world b: 1000 / 500 = 2×. Resampled within worlds, each world
    // keeps its three seeds, so the median cannot drift towards either world.
    expect(all?.figures.timeToMatch).toEqual({ median: 3, low: 3, high: 3, n: 6 });
    expect(all?.figures.wallRatio).toEqual({ median: 2, low: 2, high: 2, n: 6 });
    expect(all?.figures.reverseNotReached).toBe(6);
    expect(all?.scope).toBe(allWorlds);
    const sampling = findComparison(comparisons, {
      left: "ecdysis",
      right: "sampling",
      budgetEvals: 10,
      scope: "b",
    });
    expect(sampling?.figures.heldoutDiff?.median).toBeCloseTo(0.3, 9);
    expect(sampling?.figures.timeToMatch).toBeNull();
  });

  it("pairs only runs of the same budget and refiner variant", () => {
    const mixed = [
      benchRun({ strategy: "ecdysis", budgetEvals: 5 }),
      benchRun({ strategy: "iterative", budgetEvals: 15 }),
      benchRun({ strategy: "ecdysis", refiner: "neutral" }),
      benchRun({ strategy: "iterative" }),
    ];
    expect(computeComparisons(mixed, { resamples: 100, seed: 1 })).toEqual([]);
  });
});

describe("time-to-match in training rollouts and LLM calls", () => {
  // Probe steps are [ms, accuracy, rollouts, LLM calls through the step's iteration].
  const iterative = probe([
    [0, 0.4, 40, 50],
    [1000, 0.7, 200, 300],
  ]);
  const ecdysis: Record<string, ReturnType<typeof probe>> = {
    // A* = 0.7 (iterative's best). Ecdysis first at ≥ 0.7: 250 ms, 50 rollouts, 100 calls.
    // Wall 1000 / 250 = 4×; rollouts 200 / 50 = 4×; calls 300 / 100 = 3×.
    a: probe([
      [0, 0.4, 0, 0],
      [250, 0.8, 50, 100],
    ]),
    // Wall 1000 / 500 = 2×; rollouts 200 / 100 = 2×; calls 300 / 200 = 1.5×.
    b: probe([
      [0, 0.4, 0, 0],
      [500, 0.8, 100, 200],
    ]),
    // Never reaches 0.7: 0× in every unit. Reverse: iterative reaches Ecdysis's best (0.6) at
    // its 0.7 point: wall 1000 / 100 = 10×, rollouts 200 / 30 = 6.67×, calls 300 / 40 = 7.5×.
    c: probe([
      [0, 0.4, 0, 0],
      [100, 0.6, 30, 40],
    ]),
  };
  const runs = ["a", "b", "c"].flatMap((world) =>
    [1, 2].flatMap((seed) => [
      benchRun({ strategy: "ecdysis", world, seed, probe: ecdysis[world] }),
      benchRun({ strategy: "iterative", world, seed, probe: iterative }),
    ]),
  );
  const comparisons = computeComparisons(runs, { resamples: 200, seed: 1 });
  const figures = (scope?: string) =>
    findComparison(comparisons, { left: "ecdysis", right: "iterative", budgetEvals: 10, scope })
      ?.figures;

  it("counts each arm's spend through the iteration that made its first harness at A* current", () => {
    expect(figures("a")?.timeToMatchRollouts).toEqual({ median: 4, low: 4, high: 4, n: 2 });
    expect(figures("a")?.timeToMatchLlmCalls).toEqual({ median: 3, low: 3, high: 3, n: 2 });
    expect(figures("b")?.timeToMatchLlmCalls).toEqual({ median: 1.5, low: 1.5, high: 1.5, n: 2 });
    expect(figures("c")?.timeToMatchRollouts).toEqual({ median: 0, low: 0, high: 0, n: 2 });
    // All worlds: rollouts {4, 4, 2, 2, 0, 0} → 2; calls {3, 3, 1.5, 1.5, 0, 0} → 1.5; every
    // world keeps its two (equal) seeds in a resample, so the interval is the median itself.
    expect(figures()?.timeToMatchRollouts).toEqual({ median: 2, low: 2, high: 2, n: 6 });
    expect(figures()?.timeToMatchLlmCalls).toEqual({ median: 1.5, low: 1.5, high: 1.5, n: 6 });
    expect(figures()?.timeToMatch).toEqual({ median: 2, low: 2, high: 2, n: 6 });
    expect(figures()?.timeToMatchNotReached).toBe(2);
  });

  it("counts the reverse direction over the pairs where the baseline got there", () => {
    expect(figures()?.reverseTimeToMatch).toEqual({ median: 10, low: 10, high: 10, n: 2 });
    expect(figures()?.reverseTimeToMatchRollouts?.median).toBeCloseTo(200 / 30, 9);
    expect(figures()?.reverseTimeToMatchLlmCalls?.median).toBe(7.5);
    expect(figures("a")?.reverseTimeToMatchRollouts).toBeNull();
  });

  it("leaves out a pair whose runs recorded no spend, never counting it as free", () => {
    const unrecorded = [
      ...runs,
      benchRun({
        strategy: "ecdysis",
        world: "a",
        seed: 3,
        probe: probe([
          [0, 0.4],
          [250, 0.8],
        ]),
      }),
      benchRun({ strategy: "iterative", world: "a", seed: 3, probe: iterative }),
    ];
    const a = findComparison(computeComparisons(unrecorded, { resamples: 50, seed: 1 }), {
      left: "ecdysis",
      right: "iterative",
      budgetEvals: 10,
      scope: "a",
    });
    expect(a?.figures.timeToMatch?.n).toBe(3);
    expect(a?.figures.timeToMatchRollouts?.n).toBe(2);
    expect(a?.pairs.at(-1)?.timeToMatchRollouts).toBeNull();
  });

  it("parses a comparison and a run written before these fields", () => {
    const old = comparisons[0];
    const { timeToMatchRollouts, timeToMatchLlmCalls, ...figuresBefore } = old.figures;
    const pairsBefore = old.pairs.map(
      ({
        timeToMatchRollouts: _r,
        timeToMatchLlmCalls: _c,
        reverseRollouts,
        reverseLlmCalls,
        ...pair
      }) => pair,
    );
    const {
      reverseTimeToMatchRollouts: _rr,
      reverseTimeToMatchLlmCalls: _rc,
      ...figuresOld
    } = figuresBefore;
    const parsed = comparisonSchema.parse({ ...old, figures: figuresOld, pairs: pairsBefore });
    expect(parsed.figures.timeToMatchRollouts).toBeNull();
    expect(parsed.pairs[0].reverseLlmCalls).toBeNull();
    expect(parsed.figures.timeToMatch).toEqual(old.figures.timeToMatch);
    const run = benchRun({ strategy: "ecdysis", probe: probe([[0, 0.4]]) });
    const { heldoutSystematicTasks, ...before } = run;
    expect(benchRunSchema.parse(before).heldoutSystematicTasks).toBeNull();
  });
});
