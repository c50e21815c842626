import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TransportError } from "../errors/transport-error.js";
import { ContextLengthError } from "../llm/context-length-error.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import type { ChatRequest } from "../llm/types.js";
import { askStructured } from "./structured-ask.js";

const chars = (request: ChatRequest) =>
  request.messages.reduce((sum, message) => sum + (message.content?.length ?? 0), 0);

/** A refiner model with a short context (vLLM's words, 4 characters a token). */
const shortContext = (limitChars: number) =>
  new ScriptedProvider((request) => {
    const size = chars(request);
    if (size > limitChars)
      throw new ContextLengthError(
        `400 from http://x/v1: the prompt is longer than the model's context (server said: This model's maximum context length is ${limitChars / 4} tokens. However, you requested ${Math.ceil(size / 4)} tokens in the messages.)`,
        { status: 400 },
      );
    return { content: '{"ok":true}' };
  });

const evidence = {
  patterns: [
    {
      id: "p-1",
      name: "step-budget-exhausted",
      examples: Array.from({ length: 5 }, (_, index) => ({
        task: `Using the registry, what is the employer of the mentor of Person ${index}?`,
        events: ["tool-error", "step-limit"],
        toolCalls: [
          { name: "lookup", arguments: `{"key":"Person ${index}"}`, result: "r".repeat(120) },
        ],
      })),
    },
  ],
  harness: {
    config: { agent_loop: { max_steps: 3 } },
    reference: {
      fields: Array.from({ length: 20 }, (_, index) => `field.${index}: ${"d".repeat(130)}`),
    },
  },
};
const ask = (provider: ScriptedProvider) =>
  askStructured({
    provider,
    schemaName: "probe",
    purpose: "diagnostician",
    instructions: "You diagnose failures.",
    evidence,
    jsonSchema: {},
    schema: z.object({ ok: z.boolean() }),
    expendable: ["harness.reference"],
  });
const sentEvidence = (request: ChatRequest) => {
  const user = request.messages.at(-1)?.content ?? "";
  return JSON.parse(user.slice(user.indexOf("```json\n") + 8, user.lastIndexOf("\n```")));
};

describe("askStructured: a role prompt longer than the model's context", () => {
  it("is sent again fitted to the stated size, losing the expendable reference before any example", async () => {
    const provider = shortContext(4000);
    const { value } = await ask(provider);
    expect(value).toEqual({ ok: true });
    expect(provider.calls).toHaveLength(2);
    expect(chars(provider.calls[1])).toBeLessThanOrEqual(4000);
    const sent = sentEvidence(provider.calls[1]);
    expect(sent.patterns[0].examples).toEqual(evidence.patterns[0].examples);
    expect(sent.harness.config).toEqual(evidence.harness.config);
    expect(sent.harness.reference).toBeUndefined();
  });

  it("too long even fitted twice: a stop that says so and what to change", async () => {
    const provider = shortContext(400);
    const error = await ask(provider).catch((caught: unknown) => caught);
    expect(provider.calls).toHaveLength(3);
    expect(error).toBeInstanceOf(TransportError);
    expect(String((error as Error).message)).toMatch(
      /diagnostician prompt is longer than the refiner model's context even with its evidence trimmed to \d+ characters.*refiner\.model.*evolve\.batchSize/,
    );
  });
});
