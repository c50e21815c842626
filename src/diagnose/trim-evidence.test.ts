import { describe, expect, it } from "vitest";
import { fitEvidence } from "./trim-evidence.js";
import { evidenceBlock } from "./untrusted-text.js";

const size = (value: unknown) => evidenceBlock(value, { compact: true }).length;
const long = `Background notes: ${"Quiet archive. ".repeat(150)}\n\nTask: What is 3*4?`;
const evidence = {
  failures: Array.from({ length: 4 }, (_, index) => ({
    id: `f${index + 1}`,
    task: index === 0 ? long : `What is ${index}*4?`,
    events: ["no-answer", "step-limit", "tool-error"],
    toolCalls: Array.from({ length: 4 }, () => ({ name: "lookup", result: "r".repeat(200) })),
  })),
  reference: { fields: ["a: the first field", "b: the second field"] },
};

describe("fitEvidence", () => {
  it("leaves evidence that fits untouched", () => {
    expect(fitEvidence(evidence, size(evidence))).toBe(evidence);
  });

  it("drops the expendable parts first", () => {
    const fitted = fitEvidence(evidence, size(evidence) - 10, { expendable: ["reference"] });
    expect(fitted).toEqual({ failures: evidence.failures });
  });

  it("then cuts long texts in the middle (the question at the end survives), keeping every item", () => {
    const fitted = fitEvidence(evidence, size(evidence) - 1000) as typeof evidence;
    expect(size(fitted)).toBeLessThanOrEqual(size(evidence) - 1000);
    expect(fitted.failures).toHaveLength(4);
    expect(fitted.failures[0].task).toMatch(
      /^Background notes: [\s\S]*characters cut[\s\S]*Task: What is 3\*4\?$/,
    );
    expect(fitted.failures[0].toolCalls).toHaveLength(4);
  });

  it("then keeps fewer nested records, never event lists, and the top list's items last", () => {
    const fitted = fitEvidence(evidence, 2000) as typeof evidence;
    expect(size(fitted)).toBeLessThanOrEqual(2000);
    expect(fitted.failures).toHaveLength(4);
    for (const failure of fitted.failures) {
      expect(failure.events).toEqual(["no-answer", "step-limit", "tool-error"]);
      expect(failure.toolCalls.length).toBeLessThan(4);
    }
    const smallest = fitEvidence(evidence, 10) as typeof evidence;
    expect(smallest.failures.length).toBeLessThan(4);
    expect(smallest.failures[0].id).toBe("f1");
  });
});
