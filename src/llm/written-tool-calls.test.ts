import { describe, expect, it } from "vitest";
import { readWrittenToolCalls } from "./written-tool-calls.js";

describe("readWrittenToolCalls", () => {
  it.each([
    [
      "hermes",
      'Let me look that up.\n<tool_call>\n{"name": "lookup", "arguments": {"key": "Ada"}}\n</tool_call>',
      "Let me look that up.",
    ],
    ["llama", '<|python_tag|>{"name": "lookup", "parameters": {"key": "Ada"}}<|eom_id|>', null],
    ["mistral", '[TOOL_CALLS][{"name": "lookup", "arguments": {"key": "Ada"}}]', null],
    ["mistral", '[TOOL_CALLS]lookup[ARGS]{"key": "Ada"}', null],
  ])("reads %s", (format, content, rest) => {
    const read = readWrittenToolCalls(content);
    expect(read?.format).toBe(format);
    expect(read?.content).toBe(rest);
    expect(read?.toolCalls).toHaveLength(1);
    expect(read?.toolCalls[0]).toMatchObject({ name: "lookup" });
    expect(JSON.parse(read?.toolCalls[0].arguments ?? "")).toEqual({ key: "Ada" });
  });

  it("reads several Hermes calls and leaves plain answers alone", () => {
    const two =
      '<tool_call>{"name": "a", "arguments": {}}</tool_call>\n<tool_call>{"name": "b", "arguments": {"x": 1}}</tool_call>';
    expect(readWrittenToolCalls(two)?.toolCalls.map((call) => call.name)).toEqual(["a", "b"]);
    for (const plain of ["Answer: 42", "I would call <tool_call> here but no", null, ""])
      expect(readWrittenToolCalls(plain)).toBeUndefined();
  });
});
