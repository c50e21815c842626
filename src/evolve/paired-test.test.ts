import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  binomialUpperTail,
  comparePaired,
  compareSamples,
  type Draw,
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

  const draw = (pass: boolean, said = pass ? "right" : "wrong"): Draw => ({ pass, said });
  const byIndex = (...draws: Draw[]) => new Map(draws.map((each, index) => [index, each]));

  it("pairs draws of the same task and sample index, and ignores draws only one side has", () => {
    const parent = new Map([
      ["a", byIndex(draw(false, "w0"), draw(false, "w1"), draw(true, "r2"))],
      ["b", byIndex(draw(true))],
    ]);
    const candidate = new Map([
      ["a", byIndex(draw(true, "r0"), draw(true, "r1"), draw(true, "r2"), draw(true, "r3"))],
      ["c", byIndex(draw(true))],
    ]);
    expect(compareSamples(parent, candidate)).toEqual({
      pairs: 3,
      repeats: 0,
      fixed: 2,
      broken: 0,
      pValue: 0.25,
    });
  });

  it("counts a pair that repeats an earlier one word for word once", () => {
    // A deterministic model: every re-draw says what the first draw said, on both sides.
    const parent = new Map([
      ["a", byIndex(draw(false), draw(false), draw(false))],
      ["b", byIndex(draw(false), draw(false), draw(false))],
    ]);
    const candidate = new Map([
      ["a", byIndex(draw(true), draw(true), draw(true))],
      ["b", byIndex(draw(true), draw(true), draw(true))],
    ]);
    expect(compareSamples(parent, candidate)).toEqual({
      pairs: 6,
      repeats: 4,
      fixed: 2,
      broken: 0,
      pValue: 0.25,
    });
  });

  it("never lowers the p-value by an identical re-draw (property)", () => {
    const task = fc.record({ parent: fc.boolean(), candidate: fc.boolean(), repeats: fc.nat(4) });
    fc.assert(
      fc.property(fc.array(task, { minLength: 1, maxLength: 12 }), (tasks) => {
        const once = (side: "parent" | "candidate", copies: (t: (typeof tasks)[0]) => number) =>
          new Map(
            tasks.map((t, id) => [
              `t${id}`,
              byIndex(
                ...Array.from({ length: copies(t) }, () => draw(t[side], `${side}-${t[side]}`)),
              ),
            ]),
          );
        const first = compareSamples(
          once("parent", () => 1),
          once("candidate", () => 1),
        );
        const redrawn = compareSamples(
          once("parent", (t) => 1 + t.repeats),
          once("candidate", (t) => 1 + t.repeats),
        );
        expect(redrawn.pValue).toBe(first.pValue);
        expect([redrawn.fixed, redrawn.broken]).toEqual([first.fixed, first.broken]);
      }),
      { numRuns: 500 },
    );
  });
});
