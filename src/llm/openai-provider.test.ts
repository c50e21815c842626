import { afterEach, describe, expect, it } from "vitest";
import { createProvider } from "./openai-provider.js";
import {
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAIServer,
} from "./testing/fake-openai-server.js";
import { testModelConfig } from "./testing/model-config.js";
import { RecordingClock } from "./testing/recording-clock.js";
import type { ChatRequest } from "./types.js";

const apiKey = "sk-test-provider-0123456789";
let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(replies: FakeReply[]): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer({ replies });
  return server;
}

const toolRequest: ChatRequest = {
  messages: [
    { role: "system", content: "You are careful." },
    { role: "user", content: "What is 6*7?" },
    {
      role: "assistant",
      content: null,
      toolCalls: [{ id: "call_a", name: "calculator", arguments: '{"expression":"6*7"}' }],
    },
    { role: "tool", content: "42", toolCallId: "call_a" },
  ],
  tools: [
    {
      name: "calculator",
      description: "Evaluates arithmetic",
      parameters: { type: "object", properties: { expression: { type: "string" } } },
    },
  ],
  seed: 3,
  temperature: 0.5,
  maxTokens: 77,
  purpose: "agent",
};

describe("createProvider", () => {
  it("sends OpenAI-shaped requests and maps tool calls, usage, cost and latency back", async () => {
    const fake = await serve([
      {
        kind: "completion",
        toolCalls: [{ id: "call_b", name: "lookup", arguments: '{"key":"Paris"}' }],
        usage: { promptTokens: 1_000, completionTokens: 500 },
        model: "served-model",
      },
    ]);
    const clock = new RecordingClock({ tickMs: 25 });
    const provider = createProvider({
      config: testModelConfig(fake.url, { price: { promptPerMTok: 2, completionPerMTok: 10 } }),
      baseUrl: fake.url,
      apiKey,
      clock,
    });
    const response = await provider.chat(toolRequest);

    expect(response.toolCalls).toEqual([
      { id: "call_b", name: "lookup", arguments: '{"key":"Paris"}' },
    ]);
    expect(response.finishReason).toBe("tool_calls");
    expect(response.usage).toEqual({ promptTokens: 1_000, completionTokens: 500 });
    expect(response.costUsd).toBeCloseTo((1_000 * 2 + 500 * 10) / 1_000_000, 12);
    expect(response.model).toBe("served-model");
    expect(response.latencyMs).toBe(25);
    expect(response.retries).toBe(0);

    const sent = fake.requests[0];
    expect(sent.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(sent.body).toMatchObject({
      model: "test-model",
      seed: 3,
      temperature: 0.5,
      max_tokens: 77,
      tools: [
        { type: "function", function: { name: "calculator", description: "Evaluates arithmetic" } },
      ],
      messages: [
        { role: "system", content: "You are careful." },
        { role: "user", content: "What is 6*7?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_a",
              type: "function",
              function: { name: "calculator", arguments: '{"expression":"6*7"}' },
            },
          ],
        },
        { role: "tool", content: "42", tool_call_id: "call_a" },
      ],
    });
    expect(sent.body).not.toHaveProperty("response_format");
    fake.assertDone();
  });

  it("asks for json_schema output and falls back to the config's sampling defaults", async () => {
    const fake = await serve([{ kind: "completion", content: '{"ok":true}' }]);
    const provider = createProvider({
      config: testModelConfig(fake.url, { temperature: 0.2, maxTokens: 300 }),
      baseUrl: fake.url,
      apiKey,
      clock: new RecordingClock(),
    });
    const response = await provider.chat({
      messages: [{ role: "user", content: "judge" }],
      jsonSchema: { name: "verdict", schema: { type: "object" } },
    });
    expect(response.content).toBe('{"ok":true}');
    const body = fake.requests[0].body as Record<string, unknown>;
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "verdict", schema: { type: "object" }, strict: false },
    });
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(300);
    expect(body).not.toHaveProperty("seed");
    expect(body).not.toHaveProperty("tools");
  });

  it("treats a reply without choices as a transport failure: retried, never returned", async () => {
    const fake = await serve([
      { kind: "completion", noChoices: true },
      { kind: "completion", content: "fine" },
    ]);
    const provider = createProvider({
      config: testModelConfig(fake.url),
      baseUrl: fake.url,
      apiKey,
      clock: new RecordingClock(),
    });
    const response = await provider.chat({ messages: [{ role: "user", content: "hi" }] });
    expect(response).toMatchObject({ content: "fine", retries: 1 });
    expect(provider.totals()).toMatchObject({ calls: 1, retries: 1 });
  });

  it("keeps totals overall and by purpose, including retries", async () => {
    const fake = await serve([
      { kind: "completion", content: "a", usage: { promptTokens: 100, completionTokens: 10 } },
      { kind: "error", status: 503, error: { message: "overloaded" } },
      { kind: "completion", content: "b", usage: { promptTokens: 200, completionTokens: 20 } },
      { kind: "completion", content: "c", usage: { promptTokens: 300, completionTokens: 30 } },
    ]);
    const provider = createProvider({
      config: testModelConfig(fake.url, { price: { promptPerMTok: 1, completionPerMTok: 4 } }),
      baseUrl: fake.url,
      apiKey,
      clock: new RecordingClock(),
    });
    await provider.chat({ messages: [{ role: "user", content: "1" }], purpose: "agent" });
    await provider.chat({ messages: [{ role: "user", content: "2" }], purpose: "agent" });
    await provider.chat({ messages: [{ role: "user", content: "3" }], purpose: "diagnostician" });
    const totals = provider.totals();
    expect(totals).toEqual({
      calls: 3,
      promptTokens: 600,
      completionTokens: 60,
      costUsd: expect.closeTo((600 * 1 + 60 * 4) / 1_000_000, 12),
      retries: 1,
      byPurpose: {
        agent: {
          calls: 2,
          promptTokens: 300,
          completionTokens: 30,
          costUsd: expect.closeTo((300 + 120) / 1_000_000, 12),
        },
        diagnostician: {
          calls: 1,
          promptTokens: 300,
          completionTokens: 30,
          costUsd: expect.closeTo((300 + 120) / 1_000_000, 12),
        },
      },
    });
    fake.assertDone();
  });

  it("never has more requests in flight than maxConcurrency", async () => {
    const replies: FakeReply[] = Array.from({ length: 6 }, (_, index) => ({
      kind: "completion",
      content: `r${index}`,
      hold: true,
    }));
    const fake = await serve(replies);
    const provider = createProvider({
      config: testModelConfig(fake.url, { maxConcurrency: 2 }),
      baseUrl: fake.url,
      apiKey,
      clock: new RecordingClock(),
    });
    const calls = Array.from({ length: 6 }, (_, index) =>
      provider.chat({ messages: [{ role: "user", content: `q${index}` }] }),
    );
    for (let released = 0; released < 6; released++) {
      const expectedHeld = Math.min(2, 6 - released);
      await fake.waitFor(() => fake.held() >= expectedHeld);
      // A grace period before releasing gives excess requests (a broken limit) time to reach
      // the server; it decides how surely a bug is caught, never whether correct code passes.
      await new Promise((resolve) => setTimeout(resolve, 30));
      fake.releaseOne();
    }
    const responses = await Promise.all(calls);
    expect(responses.map((response) => response.content).sort()).toEqual([
      "r0",
      "r1",
      "r2",
      "r3",
      "r4",
      "r5",
    ]);
    expect(fake.maxInFlight()).toBe(2);
    fake.assertDone();
  });

  it("spaces request starts to honour requestsPerMinute on the injected clock", async () => {
    const fake = await serve([
      { kind: "completion", content: "1" },
      { kind: "completion", content: "2" },
      { kind: "completion", content: "3" },
    ]);
    const clock = new RecordingClock();
    const provider = createProvider({
      config: testModelConfig(fake.url, { requestsPerMinute: 120 }),
      baseUrl: fake.url,
      apiKey,
      clock,
    });
    await Promise.all(
      [1, 2, 3].map((n) => provider.chat({ messages: [{ role: "user", content: String(n) }] })),
    );
    // 120 rpm = one start per 500 ms; each virtual sleep advances the shared clock, so the
    // third caller finds the clock already at 500 and waits for the slot at 1000.
    expect(clock.sleeps).toEqual([500, 500]);
    expect(clock.now()).toBe(Date.UTC(2026, 0, 1) + 1_000);
  });
});
