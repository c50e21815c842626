import { afterEach, describe, expect, it } from "vitest";
import { createProvider } from "./openai-provider.js";
import {
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAIServer,
} from "./testing/fake-openai-server.js";
import { testModelConfig } from "./testing/model-config.js";
import { RecordingClock } from "./testing/recording-clock.js";

// Replies real models give that are not what was asked for, through the real `openai` SDK:
// tool calls written as text, a json_schema the server ignored, reasoning and no answer.

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: FakeReply[]) {
  server = await startFakeOpenAIServer({ replies });
  const provider = createProvider({
    config: testModelConfig(server.url, { maxRetries: 2 }),
    baseUrl: server.url,
    clock: new RecordingClock(),
  });
  return { fake: server, provider };
}

const raw = (message: object, usage?: object): FakeReply => ({
  kind: "body",
  contentType: "application/json",
  body: JSON.stringify({
    id: "x",
    object: "chat.completion",
    model: "test-model",
    choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }],
    ...(usage ? { usage } : {}),
  }),
});
const body = (fake: FakeOpenAIServer, index: number) =>
  fake.requests[index].body as {
    tools?: unknown;
    response_format?: unknown;
    messages: { role: string; content: string }[];
  };
const lookup = {
  messages: [
    { role: "system" as const, content: "Answer with 'Answer: <x>'." },
    { role: "user" as const, content: "Who is Ada's manager?" },
  ],
  tools: [
    {
      name: "lookup",
      description: "Looks up a registry entry.",
      parameters: { type: "object", properties: { key: { type: "string" } } },
    },
  ],
};
const schema = {
  type: "object",
  properties: { ok: { type: "boolean" } },
  required: ["ok"],
  additionalProperties: false,
};
const structured = {
  messages: [
    { role: "system" as const, content: "You judge." },
    { role: "user" as const, content: "Is it ok?" },
  ],
  jsonSchema: { name: "verdict", schema },
};

describe("replies that are not what was asked for", () => {
  it("Hermes tool calls written as text in native mode: read as calls, tools step down to the text protocol", async () => {
    const hermes = '<tool_call>\n{"name": "lookup", "arguments": {"key": "Ada"}}\n</tool_call>';
    const { fake, provider } = await setup([
      raw({ content: hermes }),
      raw({ content: 'CALL lookup {"key": "Bob"}' }),
    ]);
    const first = await provider.chat(lookup);
    expect(first.toolCalls).toMatchObject([{ name: "lookup", arguments: '{"key":"Ada"}' }]);
    expect(provider.downgrades()).toMatchObject([
      { parameter: "tools", from: "native", to: "text", reason: expect.stringContaining("Hermes") },
    ]);
    const second = await provider.chat(lookup);
    expect(second.toolCalls).toMatchObject([{ name: "lookup" }]);
    expect(body(fake, 1).tools).toBeUndefined();
    expect(body(fake, 1).messages[0].content).toContain("## Tools");
  });

  it("a strict json_schema answered in prose: the value is still read, and the schema rides in the prompt from then on", async () => {
    const { fake, provider } = await setup([
      raw({ content: 'Sure! Here is my verdict: {"ok": true} Hope that helps.' }),
      raw({ content: '{"ok": true}' }),
    ]);
    const first = await provider.chat(structured);
    expect(first.content).toContain('{"ok": true}');
    expect(provider.downgrades()).toMatchObject([
      { parameter: "response_format", from: "json_schema", to: "json_object" },
    ]);
    await provider.chat(structured);
    expect(body(fake, 0).messages[0].content).toBe("You judge.");
    expect(body(fake, 1).messages[0].content).toContain("## Reply format");
  });

  it("reasoning and no content (content null or empty): returned as such, not retried, reasoning billed", async () => {
    const { fake, provider } = await setup([
      raw(
        { content: null, reasoning_content: "Okay, so the user wants… let me think" },
        { prompt_tokens: 20, completion_tokens: 3, total_tokens: 823 },
      ),
      raw({ content: "", reasoning: "Hmm." }),
    ]);
    const first = await provider.chat({ messages: [{ role: "user", content: "2+2?" }] });
    expect(first.content ?? "").toBe("");
    expect(first.reasoning).toContain("let me think");
    expect(first.usage).toEqual({ promptTokens: 20, completionTokens: 803 });
    expect(first.retries).toBe(0);
    const second = await provider.chat({ messages: [{ role: "user", content: "2+2?" }] });
    expect(second.reasoning).toBe("Hmm.");
    expect(fake.requests).toHaveLength(2);
  });

  it("a reply cut at the limit before any text fails, after its retries, with the fix for that (not maxRetries)", async () => {
    const cut: FakeReply = { kind: "completion", content: "", finishReason: "length" };
    const { provider } = await setup([cut, cut, cut]);
    const error = await provider.chat({ messages: [{ role: "user", content: "2+2?" }] }).then(
      () => new Error("no failure"),
      (caught: Error) => caught,
    );
    expect(error.message).toContain("raise model.maxTokens");
    expect(error.message).not.toContain("maxRetries");
  });
});
