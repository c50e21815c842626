import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { chatJson } from "./chat-json.js";
import { createProvider } from "./openai-provider.js";
import { strictJsonSchema } from "./strict-json-schema.js";
import { StructuredOutputError } from "./structured-output-error.js";
import {
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAIServer,
} from "./testing/fake-openai-server.js";
import { testModelConfig } from "./testing/model-config.js";
import { RecordingClock } from "./testing/recording-clock.js";

const critiqueSchema = z.object({
  verdict: z.enum(["accept", "revise", "reject"]),
  objections: z.array(z.object({ change: z.string(), reason: z.string() })),
});
const request = {
  messages: [{ role: "user" as const, content: "Review this HMS." }],
  // Strict: decoding is constrained by it, so the schema does not ride in the prompt.
  jsonSchema: { name: "critique", schema: strictJsonSchema(critiqueSchema) },
  purpose: "skeptic",
};
const valid = '{"verdict": "revise", "objections": [{"change": "c1", "reason": "only one task"}]}';
const expected = { verdict: "revise", objections: [{ change: "c1", reason: "only one task" }] };

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function providerFor(replies: FakeReply[]) {
  server = await startFakeOpenAIServer({ replies });
  return createProvider({
    config: testModelConfig(server.url),
    baseUrl: server.url,
    apiKey: "k-test-json",
    clock: new RecordingClock(),
  });
}

function userMessages(index: number): string[] {
  const body = server!.requests[index].body as {
    messages: Array<{ role: string; content: string }>;
  };
  return body.messages
    .filter((message) => message.role === "user")
    .map((message) => message.content);
}

describe("chatJson", () => {
  it("reads JSON wrapped in code fences", async () => {
    const provider = await providerFor([
      { kind: "completion", content: `Here you go:\n\`\`\`json\n${valid}\n\`\`\`` },
    ]);
    const result = await chatJson(provider, request, critiqueSchema);
    expect(result.value).toEqual(expected);
    expect(result.repairs).toBe(0);
    expect(server!.requests[0].body).toMatchObject({
      response_format: { type: "json_schema", json_schema: { name: "critique" } },
    });
  });

  it("reads JSON inside prose from a server that ignored response_format", async () => {
    const provider = await providerFor([
      {
        kind: "completion",
        content: `After careful thought, my critique is ${valid} — hope it helps.`,
      },
    ]);
    const result = await chatJson(provider, request, critiqueSchema);
    expect(result.value).toEqual(expected);
  });

  it("accepts trailing commas", async () => {
    const provider = await providerFor([
      { kind: "completion", content: '{"verdict": "accept", "objections": [],}' },
    ]);
    expect((await chatJson(provider, request, critiqueSchema)).value).toEqual({
      verdict: "accept",
      objections: [],
    });
  });

  it("re-asks with the validation error and accepts the repaired reply", async () => {
    const provider = await providerFor([
      { kind: "completion", content: '{"verdict": "maybe", "objections": []}' },
      { kind: "completion", content: valid },
    ]);
    const result = await chatJson(provider, request, critiqueSchema);
    expect(result.value).toEqual(expected);
    expect(result.repairs).toBe(1);
    const second = server!.requests[1].body as {
      messages: Array<{ role: string; content: string }>;
    };
    expect(second.messages).toHaveLength(1);
    const note = userMessages(1)[0];
    expect(note.startsWith("Review this HMS.\n\nNote about your previous reply")).toBe(true);
    expect(note).toContain('{"verdict": "maybe", "objections": []}');
    expect(note).toMatch(/critique[\s\S]*- verdict: /);
    server!.assertDone();
  });

  it("throws StructuredOutputError with the issues and raw excerpt once repairs run out", async () => {
    const provider = await providerFor([
      { kind: "completion", content: "I would rather not." },
      { kind: "completion", content: '{"verdict": "accept"}' },
      { kind: "completion", content: '{"verdict": "accept"}' },
    ]);
    const error = await chatJson(provider, request, critiqueSchema, { maxRepairs: 2 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StructuredOutputError);
    const structured = error as StructuredOutputError;
    expect(structured.code).toBe("structured-output");
    expect(structured.attempts).toBe(3);
    expect(structured.issues.join("\n")).toContain("objections");
    expect(structured.rawExcerpt).toBe('{"verdict": "accept"}');
    expect(structured.message).toContain("'critique'");
    expect(userMessages(1).at(-1)).toContain("no JSON object found");
    // Each repair replaces the previous note: a request never carries more than one.
    expect(userMessages(2)).toHaveLength(1);
    expect(userMessages(2)[0].match(/Note about your previous reply/g)).toHaveLength(1);
    expect(userMessages(2)[0]).not.toContain("no JSON object found");
    server!.assertDone();
  });

  it("re-asks with a note when the reply was cut off at the token limit", async () => {
    const provider = await providerFor([
      {
        kind: "completion",
        content: '{"verdict": "revise", "objections": [{"change": "c1", "rea',
        finishReason: "length",
      },
      { kind: "completion", content: valid },
    ]);
    const result = await chatJson(provider, request, critiqueSchema);
    expect(result.value).toEqual(expected);
    expect(userMessages(1).at(-1)).toContain("cut off at the token limit");
  });

  it("keeps the evidence the last ```json block of the last user message when echoing a fenced reply", async () => {
    const evidenceRequest = {
      ...request,
      messages: [{ role: "user" as const, content: 'Evidence:\n```json\n{"failures": []}\n```' }],
    };
    const provider = await providerFor([
      { kind: "completion", content: '```json\n{"verdict": "perhaps"}\n```' },
      { kind: "completion", content: valid },
    ]);
    await chatJson(provider, evidenceRequest, critiqueSchema);
    const blocks = [...userMessages(1)[0].matchAll(/```json\s*\n([\s\S]*?)\n?```/g)];
    expect(blocks.at(-1)?.[1]).toBe('{"failures": []}');
  });

  it("leaves a reply with no choices to the transport: retried as sent, not re-asked", async () => {
    const provider = await providerFor([
      { kind: "completion", noChoices: true },
      { kind: "completion", content: valid },
    ]);
    const result = await chatJson(provider, request, critiqueSchema);
    expect(result.repairs).toBe(0);
    expect(result.response.retries).toBe(1);
    expect(userMessages(1).at(-1)).not.toContain("Note about your previous reply");
  });

  it("makes exactly one call when maxRepairs is 0", async () => {
    const provider = await providerFor([{ kind: "completion", content: "nope" }]);
    await expect(
      chatJson(provider, request, critiqueSchema, { maxRepairs: 0 }),
    ).rejects.toBeInstanceOf(StructuredOutputError);
    expect(server!.requests).toHaveLength(1);
  });
});
