import { describe, expect, it } from "vitest";
import { cutMiddle } from "./cut-middle.js";

describe("cutMiddle", () => {
  const text = `${"a".repeat(500)}${"b".repeat(500)}${"c".repeat(500)}`;

  it("keeps a third of what fits from the start, two thirds from the end, and says how much went", () => {
    const cut = cutMiddle(text, 300);
    expect(cut.length).toBeLessThanOrEqual(300);
    const [head, tail] = cut.split(/\n\[… \d+ characters cut to fit the model's context …\]\n/);
    expect(head).toMatch(/^a+$/);
    expect(tail).toMatch(/^c+$/);
    expect(tail.length).toBeGreaterThanOrEqual(2 * head.length - 1);
    expect(cut).toContain(`[… ${text.length - head.length - tail.length} characters cut`);
  });

  it("leaves a text that fits alone, and keeps only the end when not even the mark fits", () => {
    expect(cutMiddle("short", 10)).toBe("short");
    expect(cutMiddle(text, 20)).toBe("c".repeat(20));
  });
});
