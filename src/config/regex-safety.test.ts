import { describe, expect, it } from "vitest";
import { hasNestedQuantifier } from "./regex-safety.js";

describe("hasNestedQuantifier", () => {
  it("accepts the usual answer patterns", () => {
    for (const pattern of [
      "Answer:\\s*(.+)",
      "(?:Final answer|Answer)\\s*[:=]\\s*(.+?)\\.?$",
      "\\*\\*(\\d+(?:\\.\\d+)?)\\*\\*",
      "([a-z]+)-(\\d+)",
      "[(+)]+",
    ])
      expect(hasNestedQuantifier(pattern), pattern).toBe(false);
  });

  it("refuses a repeated group that repeats inside", () => {
    for (const pattern of ["(a+)+", "Answer: (\\w*\\s?)*", "((ab)*c)+", "(x|y+){2,}"])
      expect(hasNestedQuantifier(pattern), pattern).toBe(true);
  });
});
