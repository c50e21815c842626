import { describe, expect, it } from "vitest";
import { comparePaired } from "./paired-test.js";
import {
  attainableTargetedP,
  hypergeometricUpperTail,
  targetedFlips,
  targetedPower,
} from "./targeted-test.js";

function outcomes(passing: string[], failing: string[]): Map<string, boolean> {
  return new Map([
    ...passing.map((id) => [id, true] as const),
    ...failing.map((id) => [id, false] as const),
  ]);
}

describe("targeted flip test", () => {
  it("gives a 3-task fix with nothing else flipping p = 1/C(40, 3), where the fair coin gives 1/8", () => {
    const ids = Array.from({ length: 40 }, (_, index) => `t${index}`);
    const before = outcomes(ids.slice(3), ids.slice(0, 3));
    const after = outcomes(ids, []);
    const full = comparePaired(before, after);
    expect(full.pValue).toBeCloseTo(0.125);
    const test = targetedFlips(full, new Set(ids.slice(0, 3)));
    expect(test).toMatchObject({ n: 40, targets: 3, flips: 3, fixedTargets: 3, backgroundRate: 0 });
    expect(test.pValue).toBeCloseTo(1 / 9880, 8);
    expect(attainableTargetedP(40, 3)).toBeCloseTo(1 / 9880, 8);
  });

  it("counts every flip the edit did not aim at as background, which raises p", () => {
    const ids = Array.from({ length: 10 }, (_, index) => `t${index}`);
    // Named t0..t2 fixed; t3 (failing, not named) fixed too; t9 (passing) broken.
    const before = outcomes(ids.slice(4), ids.slice(0, 4));
    const after = outcomes([...ids.slice(0, 4), ...ids.slice(4, 9)], ["t9"]);
    const test = targetedFlips(comparePaired(before, after), new Set(ids.slice(0, 3)));
    expect(test).toMatchObject({ flips: 5, fixedTargets: 3 });
    expect(test.backgroundRate).toBeCloseTo(2 / 7);
    // P[all 3 named among 5 random flips of 10] = C(7,2)/C(10,5) = 21/252.
    expect(test.pValue).toBeCloseTo(21 / 252, 10);
  });

  it("matches the hypergeometric tail by enumeration", () => {
    // Population 6, 2 marked, 3 drawn: P[X ≥ 1] = 1 − C(4,3)/C(6,3) = 1 − 4/20.
    expect(hypergeometricUpperTail(1, 6, 2, 3)).toBeCloseTo(0.8, 12);
    expect(hypergeometricUpperTail(0, 6, 2, 3)).toBe(1);
    expect(hypergeometricUpperTail(3, 6, 2, 3)).toBe(0);
  });

  it("reports power: certain with no background, falling as the background flips more", () => {
    const quiet = targetedPower({ n: 40, targets: 3, backgroundRate: 0, alpha: 0.1 });
    const noisy = targetedPower({ n: 40, targets: 3, backgroundRate: 0.5, alpha: 0.1 });
    expect(quiet).toBe(1);
    expect(noisy).toBeLessThan(quiet);
    expect(noisy).toBeGreaterThanOrEqual(0);
    // A batch too small for any fix of 2 named tasks to pass: C(4, 2) = 6, p = 1/6 ≥ 0.1.
    expect(targetedPower({ n: 4, targets: 2, backgroundRate: 0, alpha: 0.1 })).toBe(0);
  });
});
