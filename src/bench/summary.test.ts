import { describe, expect, it } from "vitest";
import { spread, summariseArms } from "./summary.js";
import { benchRun } from "./testing/bench-run.js";

describe("spread", () => {
  it("gives the median and range of the finite values, null when there are none", () => {
    expect(spread([3, 1, 2, null, Number.NaN])).toEqual({ median: 2, min: 1, max: 3, n: 3 });
    expect(spread([null])).toBeNull();
  });
});

describe("summariseArms", () => {
  it("summarises each arm per budget and refiner variant, with its stop reasons", () => {
    const arms = summariseArms([
      benchRun({ strategy: "iterative", seed: 1, rollouts: 100, stoppedBy: "budget:rollouts" }),
      benchRun({ strategy: "iterative", seed: 2, rollouts: 300, stoppedBy: "no-failures" }),
      benchRun({ strategy: "iterative", seed: 1, budgetEvals: 20, rollouts: 800 }),
      benchRun({ strategy: "ecdysis", seed: 1, refiner: "neutral", rollouts: 50 }),
    ]);
    expect(
      arms.map((arm) => `${arm.strategy}/${arm.budgetEvals}/${arm.refiner}/${arm.runs}`),
    ).toEqual(["iterative/10/world/2", "iterative/20/world/1", "ecdysis/10/neutral/1"]);
    expect(arms[0].figures.rollouts).toEqual({ median: 200, min: 100, max: 300, n: 2 });
    expect(arms[0].stoppedBy).toEqual({ "budget:rollouts": 1, "no-failures": 1 });
    expect(arms[2].figures.patternPurity).toBeNull();
  });
});
