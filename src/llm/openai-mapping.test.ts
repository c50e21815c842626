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
      refused: true,
    });
  });

  it("keeps reasoning apart from the content (vLLM's reasoning_content, OpenRouter's reasoning)", () => {
    for (const field of ["reasoning_content", "reasoning"]) {
      const mapped = fromOpenAIResponse(
        completion({ choices: [{ message: { content: "", [field]: "Let me think. 4." } }] }),
      );
      expect(mapped.content).toBe("");
      expect(mapped.reasoning).toBe("Let me think. 4.");
    }
  });

  it.each([
    [
      "in completion_tokens (OpenAI)",
      {
        prompt_tokens: 10,
        completion_tokens: 500,
        total_tokens: 510,
        completion_tokens_details: { reasoning_tokens: 450 },
      },
      500,
    ],
    [
      "only in the details",
      {
        prompt_tokens: 10,
        completion_tokens: 50,
        completion_tokens_details: { reasoning_tokens: 450 },
      },
      500,
    ],
    [
      "only in total_tokens (some gateways)",
      { prompt_tokens: 10, completion_tokens: 50, total_tokens: 510 },
      500,
    ],
  ])("bills reasoning tokens reported %s", (_where, usage, billed) => {
    const mapped = fromOpenAIResponse(
      completion({ usage, choices: [{ message: { content: "4" } }] }),
    );
    expect(mapped.promptTokens).toBe(10);
    expect(mapped.completionTokens).toBe(billed);
  });

  it("reads tool calls a model wrote as text when tools were offered, and says in which format", () => {
    const content = '<tool_call>\n{"name": "lookup", "arguments": {"key": "Ada"}}\n</tool_call>';
    const mapped = fromOpenAIResponse(completion({ choices: [{ message: { content } }] }), {
      offeredTools: true,
    });
    expect(mapped.toolCalls).toMatchObject([{ name: "lookup", arguments: '{"key":"Ada"}' }]);
    expect(mapped.content).toBeNull();
    expect(mapped.writtenToolCalls).toBe("hermes");
    expect(
      fromOpenAIResponse(completion({ choices: [{ message: { content } }] })).toolCalls,
    ).toEqual([]);
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
