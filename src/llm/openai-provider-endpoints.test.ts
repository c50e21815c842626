import { afterEach, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/config-schema.js";
import { TransportError } from "../errors/transport-error.js";
import { ownLimits } from "./endpoint-limits.js";
import { createProvider } from "./openai-provider.js";
import {
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAIServer,
} from "./testing/fake-openai-server.js";
import { testModelConfig } from "./testing/model-config.js";
import { RecordingClock } from "./testing/recording-clock.js";

// How requests look on the wire for endpoints that are not OpenAI's, and per capability setting.

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  replies: FakeReply[],
  overrides: Partial<ModelConfig> = {},
  /** null: a keyless server. */
  apiKey: string | null = "sk-endpoint-test-0123",
) {
  server = await startFakeOpenAIServer({ replies });
  const provider = createProvider({
    config: testModelConfig(server.url, overrides),
    baseUrl: server.url,
    apiKey: apiKey ?? undefined,
    clock: new RecordingClock(),
  });
  return { fake: server, provider };
}

const ok: FakeReply = { kind: "completion", content: '{"ok":true}' };
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
const body = (fake: FakeOpenAIServer, index = 0) =>
  fake.requests[index].body as Record<string, unknown>;

describe("createProvider on the wire", () => {
  it("sends no Authorization header at all to a keyless server", async () => {
    const { fake, provider } = await setup([ok], {}, null);
    await provider.chat({ messages: [{ role: "user", content: "hi" }] });
    expect(fake.requests[0].headers.authorization).toBeUndefined();
    expect(fake.requests[0].headers["api-key"]).toBeUndefined();
  });

  it("sends the key in api-key (not Authorization) and api-version in the query, Azure's way", async () => {
    const { fake, provider } = await setup([ok], { auth: "api-key", apiVersion: "2024-10-21" });
    await provider.chat({ messages: [{ role: "user", content: "hi" }] });
    expect(fake.requests[0].headers["api-key"]).toBe("sk-endpoint-test-0123");
    expect(fake.requests[0].headers.authorization).toBeUndefined();
    expect(fake.requests[0].path).toBe("/v1/chat/completions?api-version=2024-10-21");
  });

  it("keeps the whole reason of an error body the SDK does not read (vLLM's dialect)", async () => {
    const reason = `The model \`llama-3-8b\` does not exist. ${"Served models: a, b, c. ".repeat(30)}End.`;
    const { provider } = await setup([
      {
        kind: "body",
        status: 404,
        body: JSON.stringify({
          object: "error",
          message: reason,
          type: "NotFoundError",
          code: 404,
        }),
      },
    ]);
    const error = (await provider
      .chat({ messages: [{ role: "user", content: "hi" }] })
      .catch((caught: unknown) => caught)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.message).toContain(reason);
  });

  it("json_schema: strict response_format, the schema not pasted into the prompt", async () => {
    const { fake, provider } = await setup([ok]);
    await provider.chat(structured);
    expect(body(fake).response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "verdict", schema, strict: true },
    });
    expect(JSON.stringify(body(fake).messages)).not.toContain("JSON Schema");
  });

  it.each([
    ["json_object", { type: "json_object" }],
    ["prompt", undefined],
  ] as const)("%s: the schema rides in the system prompt", async (mode, format) => {
    const { fake, provider } = await setup([ok], {
      capabilities: {
        tools: "auto",
        structuredOutput: mode,
        tokenLimit: "auto",
        temperature: "auto",
        seed: "auto",
      },
    });
    await provider.chat(structured);
    expect(body(fake).response_format).toEqual(format);
    const [system] = body(fake).messages as { content: string }[];
    expect(system.content.startsWith("You judge.\n\n## Reply format\n")).toBe(true);
    expect(system.content).toContain(JSON.stringify(schema));
  });

  it("token limit and temperature as configured, reasoning_effort and extra body fields sent", async () => {
    const { fake, provider } = await setup([ok, ok], {
      maxTokens: 200,
      reasoningEffort: "low",
      extraBody: { num_ctx: 8192 },
      capabilities: {
        tools: "auto",
        structuredOutput: "auto",
        tokenLimit: "none",
        temperature: "omit",
        seed: "auto",
      },
    });
    await provider.chat({ messages: [{ role: "user", content: "hi" }], temperature: 0.7 });
    expect(body(fake)).not.toHaveProperty("max_tokens");
    expect(body(fake)).not.toHaveProperty("max_completion_tokens");
    expect(body(fake)).not.toHaveProperty("temperature");
    expect(body(fake)).toMatchObject({ reasoning_effort: "low", num_ctx: 8192 });
  });

  it("roles that share an endpoint's limits never exceed them together", async () => {
    server = await startFakeOpenAIServer({
      replies: Array.from(
        { length: 4 },
        (): FakeReply => ({ kind: "completion", content: "x", hold: true }),
      ),
    });
    const fake = server;
    const clock = new RecordingClock();
    const config = testModelConfig(fake.url, { maxConcurrency: 1 });
    const limits = ownLimits(config, clock);
    const agent = createProvider({ config, baseUrl: fake.url, apiKey: "k", clock, limits });
    const refiner = createProvider({ config, baseUrl: fake.url, apiKey: "k", clock, limits });
    const calls = [agent, refiner, agent, refiner].map((provider) =>
      provider.chat({ messages: [{ role: "user", content: "q" }] }),
    );
    for (let released = 0; released < 4; released++) {
      await fake.waitFor(() => fake.held() >= 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
      fake.releaseOne();
    }
    await Promise.all(calls);
    expect(fake.maxInFlight()).toBe(1);
  });
});
