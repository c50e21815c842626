import { describe, expect, it } from "vitest";
import { extractJsonCandidates, removeTrailingCommas } from "./json-extraction.js";

describe("extractJsonCandidates", () => {
  it("parses a bare JSON reply", () => {
    expect(extractJsonCandidates(' {"a": 1} ')).toEqual([{ a: 1 }]);
  });
  it("reads JSON inside ``` fences", () => {
    expect(extractJsonCandidates('Sure!\n```json\n{"notes": [1, 2]}\n```\nDone.')[0]).toEqual({
      notes: [1, 2],
    });
  });
  it("reads a JSON object embedded in prose, braces inside strings included", () => {
    const text = 'I think the answer is {"verdict": "accept", "why": "a } in text"} as requested.';
    expect(extractJsonCandidates(text)).toContainEqual({ verdict: "accept", why: "a } in text" });
  });
  it("forgives trailing commas but not inside strings", () => {
    expect(extractJsonCandidates('{"a": [1, 2,], "b": "x,]",}')).toEqual([{ a: [1, 2], b: "x,]" }]);
    expect(removeTrailingCommas('{"s": "a,}"}')).toBe('{"s": "a,}"}');
  });
  it("returns nothing for text without JSON", () => {
    expect(extractJsonCandidates("I cannot help with that.")).toEqual([]);
  });
  it("offers every distinct candidate so a later one can satisfy the schema", () => {
    const text = 'Example: {"x": 1}. Real answer:\n```json\n{"y": 2}\n```';
    const candidates = extractJsonCandidates(text);
    expect(candidates).toContainEqual({ x: 1 });
    expect(candidates).toContainEqual({ y: 2 });
  });
  it("reads the answer after a reasoning model's <think> block, never a draft inside it", () => {
    const text =
      '<think>\nMaybe {"verdict": "reject", "objections": [{"change": "0", "reason": "too broad, on reflection"}]}? No.\n</think>\n{"verdict": "accept", "objections": []}';
    expect(extractJsonCandidates(text)).toEqual([{ verdict: "accept", objections: [] }]);
  });
});
