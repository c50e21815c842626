import { describe, expect, it } from "vitest";
import { harnessConfigSchema } from "../config/harness-schema.js";
import { hasNestedQuantifier } from "../config/regex-safety.js";
import { extractAnswer } from "./completion.js";

const defaultPattern = harnessConfigSchema.parse({}).completion.answer_pattern;

describe("extractAnswer with the default answer_pattern", () => {
  it.each([
    ["Answer: 42", "42"],
    ["Working.\nanswer: 42", "42"],
    ["ANSWER: 42", "42"],
    ["Final answer: Lisbon", "Lisbon"],
    ["FINAL ANSWER: Lisbon", "Lisbon"],
    ["So:\n**Answer:** 42", "42"],
    ["**Answer**: 42", "42"],
    ["__Answer:__ 42", "42"],
    ["Answer: `42`", "42"],
    ["Answer: 42`", "42"],
    ["Answer: **42**", "42"],
    ["*Final answer:* Lisbon", "Lisbon"],
    ["Answer: 12 km/h", "12 km/h"],
  ])("reads %j as %j", (text, expected) => {
    expect(extractAnswer(text, defaultPattern)).toBe(expected);
  });

  it("keeps prose without an answer line unextracted", () => {
    expect(extractAnswer("So the result is **42**.", defaultPattern)).toBeNull();
  });

  it("takes the last answer line", () => {
    expect(extractAnswer("Answer: 41\nFinal answer: 42", defaultPattern)).toBe("42");
  });

  it("is a pattern harness.yaml accepts (no nested repetition)", () => {
    expect(hasNestedQuantifier(defaultPattern)).toBe(false);
  });
});

describe("extractAnswer with a user pattern", () => {
  it("strips Markdown emphasis and code ticks around what the pattern captured", () => {
    expect(extractAnswer("Result => `7`", "Result => (.+)")).toBe("7");
    expect(extractAnswer("Result => **7**", "Result => (.+)")).toBe("7");
  });

  it("leaves inner marks alone", () => {
    expect(extractAnswer("Answer: a*b", "Answer: (.+)")).toBe("a*b");
  });
});
