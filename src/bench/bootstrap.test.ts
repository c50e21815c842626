import { describe, expect, it } from "vitest";
import { createRng } from "../evolve/rng.js";
import { bootstrapMedian, bootstrapRng, median } from "./bootstrap.js";

const values = (stratum: string, list: number[]) => list.map((value) => ({ stratum, value }));

describe("bootstrapMedian", () => {
  it("brackets the median and is reproducible with the same rng seed", () => {
    const data = [...values("a", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), ...values("b", [2, 2, 3, 3])];
    const first = bootstrapMedian({ values: data, resamples: 500, rng: createRng(7) });
    const again = bootstrapMedian({ values: data, resamples: 500, rng: createRng(7) });
    expect(first).toEqual(again);
    expect(first?.median).toBe(median(data.map((entry) => entry.value)));
    expect(first?.low).toBeLessThanOrEqual(first?.median ?? 0);
    expect(first?.high).toBeGreaterThanOrEqual(first?.median ?? 0);
    expect(first?.high).toBeGreaterThan(first?.low ?? 0);
    expect(first?.n).toBe(14);
  });

  it("gives a zero-width interval when every pair agrees, and null without values", () => {
    expect(
      bootstrapMedian({ values: values("a", [2, 2, 2]), resamples: 100, rng: createRng(1) }),
    ).toEqual({ median: 2, low: 2, high: 2, n: 3 });
    expect(bootstrapMedian({ values: [], resamples: 100, rng: createRng(1) })).toBeNull();
  });

  it("resamples within strata: a world of one value always contributes it", () => {
    // Stratum b has a single extreme value; stratified draws always include it once.
    const data = [...values("a", [0, 0, 0]), ...values("b", [100])];
    const estimate = bootstrapMedian({ values: data, resamples: 300, rng: createRng(3) });
    expect(estimate?.high).toBe(0);
  });

  it("derives independent streams per key", () => {
    expect(bootstrapRng(1, "x").next()).toBe(bootstrapRng(1, "x").next());
    expect(bootstrapRng(1, "x").next()).not.toBe(bootstrapRng(1, "y").next());
    expect(bootstrapRng(1, "x").next()).not.toBe(bootstrapRng(2, "x").next());
  });
});
