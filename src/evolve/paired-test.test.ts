import { describe, expect, it } from "vitest";
import {
  binomialUpperTail,
  comparePaired,
  compareSamples,
  mcnemarOneSided,
} from "./paired-test.js";

describe("paired test", () => {
  it("computes the exact binomial upper tail", () => {
    expect(binomialUpperTail(9, 10)).toBeCloseTo(11 / 1024, 12);
    expect(binomialUpperTail(3, 3)).toBeCloseTo(1 / 8, 12);
    expect(binomialUpperTail(0, 5)).toBe(1);
    expect(binomialUpperTail(6, 5)).toBe(0);
    expect(binomialUpperTail(600, 1000)).toBeGreaterThan(0);
    expect(binomialUpperTail(600, 1000)).toBeLessThan(1e-9);
  });

  it("pairs outcomes and counts only discordant tasks", () => {
    const before = new Map([
      ["a", false],
      ["b", false],
      ["c", true],
      ["d", true],
      ["e", false],
    ]);
    const after = new Map([
      ["a", true],
      ["b", true],
      ["c", false],
      ["d", true],
      ["x", true],
    ]);
    const comparison = comparePaired(before, after);
    expect(comparison).toMatchObject({
      n: 4,
      before: 2,
      after: 3,
      fixed: ["a", "b"],
      broken: ["c"],
    });
    expect(comparison.pValue).toBeCloseTo(mcnemarOneSided(2, 1), 12);
    expect(comparison.pValue).toBeCloseTo(0.5, 12);
  });

  it("pairs draws of the same task and sample index, and ignores draws only one side has", () => {
    const parent = new Map([
      [
        "a",
        new Map([
          [0, false],
          [1, false],
          [2, true],
        ]),
      ],
      ["b", new Map([[0, true]])],
    ]);
    const candidate = new Map([
      [
        "a",
        new Map([
          [0, true],
          [1, true],
          [2, true],
          [3, true],
        ]),
      ],
      ["c", new Map([[0, true]])],
    ]);
    expect(compareSamples(parent, candidate)).toEqual({
      pairs: 3,
      fixed: 2,
      broken: 0,
      pValue: 0.25,
    });
  });
});
