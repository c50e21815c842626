import { describe, expect, it } from "vitest";
import { firstNumber, numericScorer } from "./numeric-scorer.js";
import { answered, taskExpecting } from "./test-task.js";

describe("numericScorer", () => {
  it("reads the first number with thousands separators, signs and decimals", () => {
    expect(firstNumber("about 1,234.5 km")).toBe(1234.5);
    expect(firstNumber("−7 degrees")).toBe(-7);
    expect(firstNumber("x = .5")).toBe(0.5);
    expect(firstNumber("none")).toBeNull();
  });

  it("applies an absolute tolerance", async () => {
    const scorer = numericScorer({ tolerance: 0.01, relative: false });
    expect((await scorer.score(taskExpecting(3.14), answered("3.145"))).pass).toBe(true);
    expect((await scorer.score(taskExpecting(3.14), answered("3.2"))).reason).toBe("wrong-answer");
    expect((await scorer.score(taskExpecting("1,000"), answered("$1,000.00"))).pass).toBe(true);
  });

  it("applies a relative tolerance", async () => {
    const scorer = numericScorer({ tolerance: 0.01, relative: true });
    expect((await scorer.score(taskExpecting(1000), answered("1009"))).pass).toBe(true);
    expect((await scorer.score(taskExpecting(1000), answered("1011"))).pass).toBe(false);
  });

  it("fails an answer without a number and reports a non-numeric expectation as a scorer error", async () => {
    const scorer = numericScorer({ tolerance: 0, relative: false });
    expect((await scorer.score(taskExpecting(5), answered("five"))).reason).toBe("wrong-answer");
    expect((await scorer.score(taskExpecting("five"), answered("5"))).reason).toBe("scorer-error");
    expect((await scorer.score(taskExpecting(5), answered(null))).reason).toBe("no-answer");
  });
});
