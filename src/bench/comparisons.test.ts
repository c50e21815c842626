import { describe, expect, it } from "vitest";
import { allWorlds, computeComparisons, findComparison } from "./comparisons.js";
import { benchRun, probe } from "./testing/bench-run.js";

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
