import { describe, expect, it } from "vitest";
import {
  binomialUpperTail,
  comparePaired,
  isAccepted,
  isPromising,
  mcnemarOneSided,
} from "./acceptance.js";

describe("acceptance", () => {
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

  it("accepts only when fixed > broken and p < alpha", () => {
    const make = (fixed: number, broken: number) =>
      comparePaired(
        new Map([...Array(fixed + broken).keys()].map((index) => [`t${index}`, index >= fixed])),
        new Map([...Array(fixed + broken).keys()].map((index) => [`t${index}`, index < fixed])),
      );
    expect(isAccepted(make(5, 0), 0.1)).toBe(true); // p = 1/32
    expect(isAccepted(make(3, 0), 0.1)).toBe(false); // p = 1/8
    expect(isAccepted(make(6, 6), 0.99)).toBe(false);
    expect(isPromising(make(2, 1))).toBe(true);
    expect(isPromising(make(1, 1))).toBe(false);
  });
});
