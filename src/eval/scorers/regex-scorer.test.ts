import { describe, expect, it } from "vitest";
import { containsScorer } from "./contains-scorer.js";
import { regexScorer } from "./regex-scorer.js";
import { answered, taskExpecting } from "./test-task.js";

describe("regexScorer", () => {
  it("matches with the configured flags", async () => {
    expect(
      (await regexScorer({ flags: "i" }).score(taskExpecting("^par(is)?$"), answered("PARIS")))
        .pass,
    ).toBe(true);
    expect(
      (await regexScorer({ flags: "" }).score(taskExpecting("^paris$"), answered("PARIS"))).pass,
    ).toBe(false);
  });

  it("reports an invalid pattern as a scorer error", async () => {
    expect(
      (await regexScorer({ flags: "" }).score(taskExpecting("(unclosed"), answered("x"))).reason,
    ).toBe("scorer-error");
  });
});

describe("containsScorer", () => {
  it("finds the normalised expectation inside the answer", async () => {
    const scorer = containsScorer();
    expect(
      (
        await scorer.score(
          taskExpecting("Marie Curie"),
          answered("It was **marie   curie**, in 1903."),
        )
      ).pass,
    ).toBe(true);
    expect((await scorer.score(taskExpecting("Curie"), answered("Pierre"))).reason).toBe(
      "wrong-answer",
    );
  });
});
