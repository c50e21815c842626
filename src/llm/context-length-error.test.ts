import { describe, expect, it } from "vitest";
import {
  ContextLengthError,
  isContextLengthRefusal,
  statedContext,
} from "./context-length-error.js";

describe("statedContext: the counts a context-length refusal states, in each service's words", () => {
  it.each([
    [
      "OpenAI / vLLM",
      "This model's maximum context length is 450 tokens. However, you requested 587 tokens in the messages, Please reduce the length of the messages.",
      { limitTokens: 450, promptTokens: 587 },
    ],
    [
      "OpenAI (older)",
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
      { limitTokens: 8192, promptTokens: 9000 },
    ],
    [
      "Anthropic",
      "prompt is too long: 210000 tokens > 200000 maximum",
      { limitTokens: 200000, promptTokens: 210000 },
    ],
    [
      "Gemini",
      "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
      { limitTokens: 1048576, promptTokens: 1200000 },
    ],
    [
      "llama.cpp",
      "request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it",
      { limitTokens: 4096, promptTokens: 5000 },
    ],
    [
      "Mistral",
      "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length",
      { limitTokens: 32768, promptTokens: 40000 },
    ],
    [
      "the limit only",
      "This model's maximum context length is 4096 tokens.",
      { limitTokens: 4096 },
    ],
    ["no counts", "the request exceeds the available context size, try increasing it", {}],
  ])("%s", (_service, message, stated) => {
    expect(statedContext(message)).toEqual(stated);
    expect(isContextLengthRefusal({ status: 400, message })).toBe(true);
  });
});

describe("ContextLengthError.charsThatFit", () => {
  const error = (said: string) =>
    new ContextLengthError(
      `400 from http://x/v1: the prompt is longer than the model's context (server said: ${said})`,
      {
        status: 400,
      },
    );

  it("scales the refused prompt by the stated limit over the stated size, with a 5% margin", () => {
    const refused = error(
      "This model's maximum context length is 3000 tokens. However, you requested 4000 tokens in the messages.",
    );
    expect(refused.charsThatFit(16_000)).toBe(11_400);
  });

  it("halves the prompt when the server states no counts", () => {
    expect(error("the request exceeds the available context size").charsThatFit(9_000)).toBe(4_500);
    expect(error("This model's maximum context length is 3000 tokens.").charsThatFit(9_000)).toBe(
      4_500,
    );
  });
});
