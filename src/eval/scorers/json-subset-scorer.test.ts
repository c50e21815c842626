import { describe, expect, it } from "vitest";
import { isJsonSubset, jsonSubsetScorer, parseJsonAnswer } from "./json-subset-scorer.js";
import { answered, taskExpecting } from "./test-task.js";

describe("jsonSubsetScorer", () => {
  it("parses bare, fenced and embedded JSON", () => {
    expect(parseJsonAnswer('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonAnswer('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(parseJsonAnswer('Here: {"a":[1,2]} done')).toEqual({ a: [1, 2] });
    expect(parseJsonAnswer("not json")).toBeUndefined();
  });

  it("treats objects by key, arrays by distinct elements, primitives by equality", () => {
    expect(isJsonSubset({ a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(isJsonSubset({ a: { b: 1 } }, { a: { b: 1, c: 0 } })).toBe(true);
    expect(isJsonSubset({ a: 1 }, { a: "1" })).toBe(false);
    expect(isJsonSubset([1, 1], [1, 2])).toBe(false);
    expect(isJsonSubset([{ x: 1 }], [{ y: 2 }, { x: 1, y: 3 }])).toBe(true);
    expect(isJsonSubset(null, null)).toBe(true);
  });

  it("scores an answer", async () => {
    const scorer = jsonSubsetScorer();
    const task = taskExpecting({ name: "Ada", year: 1815 });
    expect(
      (await scorer.score(task, answered('{"name":"Ada","year":1815,"extra":true}'))).pass,
    ).toBe(true);
    expect((await scorer.score(task, answered('{"name":"Ada"}'))).reason).toBe("wrong-answer");
    expect((await scorer.score(task, answered("Ada, 1815"))).reason).toBe("wrong-answer");
  });
});
