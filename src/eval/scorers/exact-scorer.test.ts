import { describe, expect, it } from "vitest";
import { exactScorer } from "./exact-scorer.js";
import { normaliseAnswer } from "./normalise.js";
import { answered, taskExpecting } from "./test-task.js";

describe("exactScorer", () => {
  const scorer = exactScorer();

  it.each([
    ["Paris", "Paris"],
    ["  paris. ", "Paris"],
    ["**Paris**", "Paris"],
    ['"New   York"', "new york"],
    ["'42'.", 42],
  ])("accepts %j for %j", async (answer, expected) => {
    expect(await scorer.score(taskExpecting(expected), answered(answer))).toEqual({
      pass: true,
      score: 1,
      reason: "pass",
    });
  });

  it("rejects a different answer and reports a missing one", async () => {
    expect((await scorer.score(taskExpecting("Paris"), answered("Lyon"))).reason).toBe(
      "wrong-answer",
    );
    expect(
      (await scorer.score(taskExpecting("Paris"), answered(null, "I think Paris"))).reason,
    ).toBe("no-answer");
    expect((await scorer.score(taskExpecting("Paris"), answered("  "))).reason).toBe("no-answer");
  });

  it("accepts any of a list of alternatives", async () => {
    expect(
      (await scorer.score(taskExpecting(["NYC", "New York"]), answered("new york"))).pass,
    ).toBe(true);
  });

  it("normalises only the surroundings, not inner text", () => {
    expect(normaliseAnswer("A.B.")).toBe("a.b");
    expect(normaliseAnswer("__`x`__")).toBe("x");
  });
});
