import { afterEach, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/config-schema.js";
import { TransportError } from "../errors/transport-error.js";
import { createProvider } from "./openai-provider.js";
import {
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAIServer,
} from "./testing/fake-openai-server.js";
import { testModelConfig } from "./testing/model-config.js";
import { RecordingClock } from "./testing/recording-clock.js";

const apiKey = "sk-test-SECRET-9f8e7d6c5b4a3210";
const ask = { messages: [{ role: "user" as const, content: "hello" }], purpose: "agent" };
let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(replies: FakeReply[], overrides: Partial<ModelConfig> = {}) {
  server = await startFakeOpenAIServer({ replies });
  const clock = new RecordingClock();
  const provider = createProvider({
    config: testModelConfig(server.url, overrides),
    baseUrl: server.url,
    apiKey,
    clock,
  });
  return { fake: server, clock, provider };
}

async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TransportError);
  return error as TransportError;
}

const ok: FakeReply = { kind: "completion", content: "fine" };

describe("createProvider retries", () => {
  it("honours Retry-After in seconds on 429", async () => {
    const { fake, clock, provider } = await setup([
      {
        kind: "error",
        status: 429,
        error: { message: "slow down", type: "requests" },
        headers: { "retry-after": "7" },
      },
      ok,
    ]);
    const response = await provider.chat(ask);
    expect(response.content).toBe("fine");
    expect(response.retries).toBe(1);
    expect(clock.sleeps).toEqual([7_000]);
    expect(fake.requests).toHaveLength(2);
  });

  it("prefers retry-after-ms and reads Retry-After as an HTTP date", async () => {
    const { clock, provider } = await setup([
      {
        kind: "error",
        status: 429,
        error: { message: "slow" },
        headers: { "retry-after-ms": "1250", "retry-after": "9" },
      },
      {
        kind: "error",
        status: 429,
        error: { message: "slow" },
        headers: { "retry-after": new Date(Date.UTC(2026, 0, 1, 0, 0, 20)).toUTCString() },
      },
      ok,
    ]);
    await provider.chat(ask);
    // The clock starts at 2026-01-01T00:00:00Z and the first wait moved it on by 1.25 s.
    expect(clock.sleeps).toEqual([1_250, 18_750]);
  });

  it("fails with an explanation when Retry-After exceeds the 60 s cap", async () => {
    const { fake, clock, provider } = await setup([
      {
        kind: "error",
        status: 429,
        error: { message: "come back later" },
        headers: { "retry-after": "120" },
      },
    ]);
    const error = await failure(provider.chat(ask));
    expect(error.message).toContain("120 s");
    expect(error.message).toContain("60 s cap");
    expect(error.details.status).toBe(429);
    expect(clock.sleeps).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it("applies the Retry-After cap to 503 as well as to 429", async () => {
    const { fake, clock, provider } = await setup([
      {
        kind: "error",
        status: 503,
        error: { message: "maintenance" },
        headers: { "retry-after": "3600" },
      },
    ]);
    const error = await failure(provider.chat(ask));
    expect(error.message).toContain("3600 s");
    expect(error.message).toContain("60 s cap");
    expect(error.details).toMatchObject({ status: 503, retryable: true });
    expect(clock.sleeps).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it("fails fast on insufficient_quota without retrying", async () => {
    const { fake, clock, provider } = await setup([
      {
        kind: "error",
        status: 429,
        error: {
          message: "You exceeded your current quota",
          type: "insufficient_quota",
          code: "insufficient_quota",
        },
      },
    ]);
    const error = await failure(provider.chat(ask));
    expect(error.details.retryable).toBe(false);
    expect(error.message).toMatch(/insufficient_quota.*\$OPENAI_API_KEY.*credit/);
    expect(clock.sleeps).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it("fails fast on 401 and never reveals the API key", async () => {
    const { fake, provider } = await setup(
      [
        {
          kind: "error",
          status: 401,
          error: {
            message: `Incorrect API key provided: ${apiKey}`,
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        },
      ],
      { apiKeyEnv: "MY_LLM_KEY" },
    );
    const error = await failure(provider.chat(ask));
    expect(error.details).toMatchObject({ status: 401, retryable: false });
    expect(error.message).toContain(`401 from ${fake.url}: the API key in $MY_LLM_KEY was refused`);
    expect(error.message).toContain("Incorrect API key provided: [redacted]");
    for (const text of [
      error.message,
      String(error.stack),
      JSON.stringify(error.details),
      JSON.stringify(error),
    ]) {
      expect(text).not.toContain(apiKey);
    }
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    [400, "rejected the request"],
    [403, "not allowed to use model 'test-model'"],
    [404, "model 'test-model' or the chat completions route was not found"],
  ])("fails fast on %i with what to fix", async (status, hint) => {
    const { fake, provider } = await setup([{ kind: "error", status, error: { message: "nope" } }]);
    const error = await failure(provider.chat(ask));
    expect(error.message).toContain(hint);
    expect(error.details.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("retries 500, 502 and 408 with seeded exponential backoff, then succeeds", async () => {
    const { clock, provider } = await setup([
      { kind: "error", status: 500, error: { message: "boom" } },
      {
        kind: "error",
        status: 502,
        body: "<html>bad gateway</html>",
        headers: { "content-type": "text/html" },
      },
      { kind: "error", status: 408, error: { message: "timeout" } },
      ok,
    ]);
    const response = await provider.chat(ask);
    expect(response.retries).toBe(3);
    expect(clock.sleeps).toHaveLength(3);
    // Equal jitter: attempt k waits between half and all of 500·2^k ms.
    clock.sleeps.forEach((ms, attempt) => {
      expect(ms).toBeGreaterThanOrEqual(250 * 2 ** attempt);
      expect(ms).toBeLessThanOrEqual(500 * 2 ** attempt);
    });
    expect(provider.totals()).toMatchObject({ calls: 1, retries: 3 });
  });

  it("gives up after maxRetries with a retryable TransportError and counts the retries", async () => {
    const { fake, provider } = await setup(
      [
        { kind: "error", status: 503, error: { message: "down" } },
        { kind: "error", status: 503, error: { message: "down" } },
        { kind: "error", status: 503, error: { message: "down" } },
      ],
      { maxRetries: 2 },
    );
    const error = await failure(provider.chat(ask));
    expect(error.details.retryable).toBe(true);
    expect(error.message).toContain("after 3 attempt(s)");
    expect(error.message).toContain("503");
    expect(provider.totals()).toMatchObject({ calls: 0, retries: 2 });
    fake.assertDone();
  });

  it("retries a stalled response after the timeout, then succeeds", async () => {
    const { fake, provider } = await setup([{ kind: "stall" }, ok], { timeoutMs: 200 });
    const response = await provider.chat(ask);
    expect(response.content).toBe("fine");
    expect(response.retries).toBe(1);
    expect(fake.requests).toHaveLength(2);
  });

  it("retries a response whose body stalls after the headers", async () => {
    const { fake, provider } = await setup([{ kind: "stall", afterHeaders: true }, ok], {
      timeoutMs: 200,
    });
    const response = await provider.chat(ask);
    expect(response.content).toBe("fine");
    expect(response.retries).toBe(1);
    expect(fake.requests).toHaveLength(2);
  });

  it("retries a 200 whose body is not valid JSON", async () => {
    const { provider } = await setup([{ kind: "error", status: 200, body: '{"choices": [' }, ok]);
    const response = await provider.chat(ask);
    expect(response).toMatchObject({ content: "fine", retries: 1 });
  });

  it("retries connection failures and reports them when retries run out", async () => {
    const { fake, provider } = await setup([], { maxRetries: 1 });
    const deadUrl = fake.url;
    await fake.close();
    server = undefined;
    const dead = createProvider({
      config: testModelConfig(deadUrl, { maxRetries: 1 }),
      baseUrl: deadUrl,
      apiKey,
      clock: new RecordingClock(),
    });
    const error = await failure(dead.chat(ask));
    expect(error.message).toMatch(/after 2 attempt\(s\), last: connection failed/);
    expect(error.message).not.toContain(apiKey);
    expect(provider.totals().calls).toBe(0);
  });

  it("stops without retrying when the caller aborts", async () => {
    const { provider } = await setup([{ kind: "stall" }]);
    const controller = new AbortController();
    const call = provider.chat(ask, { signal: controller.signal });
    await server!.waitFor(() => server!.requests.length === 1);
    controller.abort();
    await expect(call).rejects.toThrow(/abort/i);
    expect(server!.requests).toHaveLength(1);
  });
});
