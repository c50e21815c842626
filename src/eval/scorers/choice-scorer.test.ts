import { describe, expect, it } from "vitest";
import { choiceScorer, namedChoice } from "./choice-scorer.js";
import { answered, taskExpecting } from "./test-task.js";

describe("choiceScorer", () => {
  const choices = ["A", "B", "C", "D"];
  const scorer = choiceScorer({ choices });

  it("finds the one choice an answer names", () => {
    expect(namedChoice("b", choices)).toBe("B");
    expect(namedChoice("The answer is (C).", choices)).toBe("C");
    expect(namedChoice("A or B", choices)).toBeNull();
    expect(namedChoice("none", choices)).toBeNull();
  });

  it("passes only when exactly the expected choice is named", async () => {
    expect((await scorer.score(taskExpecting("C"), answered("Option C"))).pass).toBe(true);
    expect((await scorer.score(taskExpecting("C"), answered("C or D"))).reason).toBe(
      "wrong-answer",
    );
    expect((await scorer.score(taskExpecting("C"), answered("D"))).reason).toBe("wrong-answer");
  });

  it("reports an expectation outside the choices as a scorer error", async () => {
    expect((await scorer.score(taskExpecting("E"), answered("E"))).reason).toBe("scorer-error");
  });
});
