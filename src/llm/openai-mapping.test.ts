import type { ChatCompletion } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { fromOpenAIResponse } from "./openai-mapping.js";

function completion(body: object): ChatCompletion {
  return body as ChatCompletion;
}

describe("fromOpenAIResponse", () => {
  it("fills in tool call ids some servers omit and infers the finish reason", () => {
    const mapped = fromOpenAIResponse(
      completion({
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                { type: "function", function: { name: "lookup", arguments: '{"key":"A"}' } },
              ],
            },
          },
        ],
      }),
    );
    expect(mapped.toolCalls).toEqual([{ id: "call_0", name: "lookup", arguments: '{"key":"A"}' }]);
    expect(mapped.finishReason).toBe("tool_calls");
  });

  it("reads missing usage as zero tokens and a refusal as the content", () => {
    const mapped = fromOpenAIResponse(
      completion({
        model: "x",
        choices: [{ message: { content: null, refusal: "I can't help with that." } }],
      }),
    );
    expect(mapped).toEqual({
      content: "I can't help with that.",
      toolCalls: [],
      finishReason: "stop",
      promptTokens: 0,
      completionTokens: 0,
      model: "x",
    });
  });

  it("serialises object-valued tool arguments that some servers send", () => {
    const mapped = fromOpenAIResponse(
      completion({
        choices: [
          {
            message: {
              tool_calls: [
                {
                  id: "c",
                  type: "function",
                  function: { name: "calculator", arguments: { expression: "1+1" } },
                },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
      }),
    );
    expect(mapped.toolCalls[0].arguments).toBe('{"expression":"1+1"}');
  });
});
