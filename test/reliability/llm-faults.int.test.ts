import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { builtinAgent } from "../../src/agent/builtin-agent.js";
import { inMemoryHarness } from "../../src/agent/testing/in-memory-harness.js";
import type { ModelConfig } from "../../src/config/config-schema.js";
import type { Task } from "../../src/config/task-schema.js";
import { TransportError } from "../../src/errors/transport-error.js";
import { evaluate } from "../../src/eval/evaluate.js";
import { RolloutCache } from "../../src/eval/rollout-cache.js";
import { exactScorer } from "../../src/eval/scorers/exact-scorer.js";
import { countCachedRollouts } from "../../src/eval/testing/cached-rollouts.js";
import { withCallCache } from "../../src/llm/call-cache.js";
import { createProvider } from "../../src/llm/openai-provider.js";
import {
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAIServer,
} from "../../src/llm/testing/fake-openai-server.js";
import { testModelConfig } from "../../src/llm/testing/model-config.js";
import { RecordingClock } from "../../src/llm/testing/recording-clock.js";

// The LLM-fault rows of the reliability matrix (issue #10): every fault a real endpoint produces,
// played by a real loopback HTTP server to the real `openai` SDK. Waits run on a recording clock
// (no test waits for a Retry-After); only the stall rows use a short (150 ms) per-attempt
// deadline, every other row the default, so a loaded machine cannot turn a reply into a timeout.
// Nothing here gates on wall time.

const apiKey = "sk-reliability-SECRET-0123456789abcdef";
const ask = { messages: [{ role: "user" as const, content: "What is 2 + 2?" }], purpose: "agent" };
const ok: FakeReply = { kind: "completion", content: "Answer: 4" };
let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function provider(
  replies: FakeReply[] | ((index: number) => FakeReply | undefined),
  overrides: Partial<ModelConfig> = {},
) {
  server = await startFakeOpenAIServer({
    replies: Array.isArray(replies) ? replies : (request) => replies(request.index),
  });
  const clock = new RecordingClock();
  const chat = createProvider({
    config: testModelConfig(server.url, overrides),
    baseUrl: server.url,
    apiKey,
    clock,
  });
  return { fake: server, clock, chat };
}

async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TransportError);
  expect(String((error as Error).message)).not.toContain(apiKey);
  return error as TransportError;
}

const rateLimited = (retryAfter: string): FakeReply => ({
  kind: "error",
  status: 429,
  error: {
    message: "Rate limit reached for requests",
    type: "requests",
    code: "rate_limit_exceeded",
  },
  headers: { "retry-after": retryAfter },
});

describe("LLM faults through a loopback server and the real openai SDK", () => {
  it("429 with a short Retry-After: waits exactly that long, then succeeds", async () => {
    const { fake, clock, chat } = await provider([rateLimited("2"), ok]);
    const response = await chat.chat(ask);
    expect(response).toMatchObject({ content: "Answer: 4", retries: 1 });
    expect(clock.sleeps).toEqual([2_000]);
    fake.assertDone();
  });

  it("429 with a long Retry-After: fails at once, saying how long the server asked for", async () => {
    const { fake, clock, chat } = await provider([rateLimited("600")]);
    const error = await failure(chat.chat(ask));
    expect(error.message).toMatch(/600 s.*60 s cap/);
    expect(clock.sleeps).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it("endless 429: gives up after maxRetries with the server's reason", async () => {
    const { fake, chat } = await provider(() => rateLimited("1"), { maxRetries: 3 });
    const error = await failure(chat.chat(ask));
    expect(error.details.retryable).toBe(true);
    expect(error.message).toContain("after 4 attempt(s)");
    expect(error.message).toContain("Rate limit reached for requests");
    expect(fake.requests).toHaveLength(4);
    expect(chat.totals()).toMatchObject({ calls: 0, retries: 3 });
  });

  it("401: fails fast, once, with the server's whole message and the key redacted", async () => {
    const long = `Incorrect API key provided: ${apiKey}. You can find your API key at https://platform.openai.com/account/api-keys. ${"Further detail. ".repeat(20)}End of message.`;
    const { fake, chat } = await provider([
      { kind: "error", status: 401, error: { message: long, code: "invalid_api_key" } },
    ]);
    const error = await failure(chat.chat(ask));
    expect(error.details).toMatchObject({ status: 401, retryable: false });
    expect(error.message).toContain("Incorrect API key provided: [redacted]");
    expect(error.message).toContain("End of message.");
    expect(fake.requests).toHaveLength(1);
  });

  it("insufficient_quota: fails fast without retrying", async () => {
    const { fake, chat } = await provider([
      {
        kind: "error",
        status: 429,
        error: {
          message: "You exceeded your current quota, please check your plan and billing details.",
          type: "insufficient_quota",
          code: "insufficient_quota",
        },
      },
    ]);
    const error = await failure(chat.chat(ask));
    expect(error.details.retryable).toBe(false);
    expect(error.message).toContain("You exceeded your current quota");
    expect(fake.requests).toHaveLength(1);
  });

  it("5xx (JSON and HTML bodies): retried with backoff, then succeeds", async () => {
    const { clock, chat } = await provider([
      { kind: "error", status: 500, error: { message: "The server had an error" } },
      { kind: "body", status: 502, contentType: "text/html", body: "<html>Bad gateway</html>" },
      { kind: "error", status: 503, error: { message: "overloaded" } },
      ok,
    ]);
    const response = await chat.chat(ask);
    expect(response).toMatchObject({ content: "Answer: 4", retries: 3 });
    expect(clock.sleeps).toHaveLength(3);
  });

  it("stall before the headers: the attempt deadline fires and the call is retried", async () => {
    const { fake, chat } = await provider([{ kind: "stall" }, ok], { timeoutMs: 150 });
    expect(await chat.chat(ask)).toMatchObject({ content: "Answer: 4", retries: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  it("stall after the headers (mid-body): the deadline covers the body too", async () => {
    const { fake, chat } = await provider([{ kind: "stall", afterHeaders: true }, ok], {
      timeoutMs: 150,
    });
    expect(await chat.chat(ask)).toMatchObject({ content: "Answer: 4", retries: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  it("connection reset before the headers: retried", async () => {
    const { fake, chat } = await provider([{ kind: "drop", stage: "before-headers" }, ok]);
    expect(await chat.chat(ask)).toMatchObject({ content: "Answer: 4", retries: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  it("connection dropped mid-body (TypeError: terminated): retried, not an unexpected error", async () => {
    const { fake, chat } = await provider([{ kind: "drop", stage: "mid-body" }, ok]);
    expect(await chat.chat(ask)).toMatchObject({ content: "Answer: 4", retries: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  it("connection dropped mid-body on every attempt: a retryable TransportError in the end", async () => {
    const { chat } = await provider(() => ({ kind: "drop", stage: "mid-body" }), {
      maxRetries: 2,
    });
    const error = await failure(chat.chat(ask));
    expect(error.details.retryable).toBe(true);
    expect(error.message).toMatch(/after 3 attempt\(s\).*connection dropped/);
  });

  it("truncated JSON body: retried", async () => {
    const { chat } = await provider([
      { kind: "body", body: '{"id":"x","choices":[{"message":{"content":"Ans' },
      ok,
    ]);
    expect(await chat.chat(ask)).toMatchObject({ content: "Answer: 4", retries: 1 });
  });

  const garbage: [string, FakeReply][] = [
    [
      "an HTML login page",
      {
        kind: "body",
        contentType: "text/html; charset=utf-8",
        body: "<!doctype html><html><head><title>Sign in</title></head><body><form>Log in to continue</form></body></html>",
      },
    ],
    ["a body without choices", { kind: "completion", omitChoices: true }],
    ["choices: []", { kind: "completion", noChoices: true }],
    ["content: null with no tool calls", { kind: "completion", content: null }],
    [
      "finish_reason length with nothing usable",
      { kind: "completion", content: "", finishReason: "length" },
    ],
  ];

  it.each(garbage)("a 200 that is %s: retried, then succeeds", async (_name, reply) => {
    const { fake, chat } = await provider([reply, ok]);
    expect(await chat.chat(ask)).toMatchObject({ content: "Answer: 4", retries: 1 });
    expect(fake.requests).toHaveLength(2);
  });

  it.each(garbage)(
    "a 200 that is %s on every attempt: a TransportError naming what came back",
    async (_name, reply) => {
      const { fake, chat } = await provider(() => reply, { maxRetries: 1 });
      const error = await failure(chat.chat(ask));
      expect(error.details.retryable).toBe(true);
      expect(error.message).toMatch(/not a (usable )?chat completion/);
      expect(fake.requests).toHaveLength(2);
    },
  );

  it("a refusal (content null, refusal text) is the model's answer, not an infrastructure error", async () => {
    const { chat } = await provider([
      { kind: "completion", content: null, refusal: "I can't help with that." },
    ]);
    expect(await chat.chat(ask)).toMatchObject({ content: "I can't help with that.", retries: 0 });
  });
});

// The evaluation side of the same faults: what did not reach the model is never scored, never
// cached, and the evaluation says how much of it there was.

const harness = inMemoryHarness("agent_loop:\n  style: single_shot\n");
const tasks: Task[] = Array.from({ length: 10 }, (_, index) => ({
  id: `t${index}`,
  input: `What is ${index} + 2?`,
  expected: String(index + 2),
  category: index % 2 === 0 ? "even" : "odd",
}));
const answer = (body: unknown): FakeReply => {
  const messages = (body as { messages: { role: string; content: string }[] }).messages;
  const asked = /What is (\d+)/.exec(messages.at(-1)?.content ?? "")?.[1] ?? "0";
  return { kind: "completion", content: `Answer: ${Number(asked) + 2}` };
};
const loginPage: FakeReply = {
  kind: "body",
  contentType: "text/html",
  body: "<html><body>Please log in</body></html>",
};

async function evaluation(options: {
  reply: (body: unknown, index: number) => FakeReply;
  dir: string;
  maxRetries?: number;
}) {
  server = await startFakeOpenAIServer({
    replies: (request) => options.reply(request.body, request.index),
  });
  const chat = createProvider({
    config: testModelConfig(server.url, { maxRetries: options.maxRetries ?? 1 }),
    baseUrl: server.url,
    apiKey,
    clock: new RecordingClock(),
  });
  const cached = withCallCache(chat, join(options.dir, "calls"));
  return evaluate({
    tasks,
    harness,
    provider: cached,
    adapter: builtinAgent(),
    scorer: () => exactScorer(),
    concurrency: 2,
    cache: new RolloutCache(join(options.dir, "rollouts")),
    split: "train",
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.filter((entry) => entry.endsWith(".json"));
}

describe("endpoint garbage in an evaluation", () => {
  it("an outage answered with 200 login pages is never cached, and the recovered endpoint scores truly", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-llm-faults-"));
    const down = await evaluation({ dir, reply: () => loginPage }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(down).toBeInstanceOf(TransportError);
    expect((down as Error).message).toMatch(/did not reach the model/);
    expect((down as Error).message).toMatch(/not a (usable )?chat completion/);
    expect(await countCachedRollouts(join(dir, "rollouts"))).toBe(0);
    expect(await filesUnder(join(dir, "calls"))).toEqual([]);
    await server?.close();
    server = undefined;

    const up = await evaluation({ dir, reply: (body) => answer(body) });
    expect(up.result.accuracy).toBe(1);
    expect(up.result.n).toBe(10);
    expect(up.result.cost.cachedRollouts).toBe(0);
  });

  it("scores only the rollouts that reached the model and counts the others next to the accuracy", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-llm-faults-"));
    // Task t3's request always gets a body without choices; every other task is answered.
    const outcome = await evaluation({
      dir,
      reply: (body) =>
        JSON.stringify(body).includes("What is 3 + 2?")
          ? { kind: "completion", noChoices: true }
          : answer(body),
    });
    expect(outcome.result.accuracy).toBe(1);
    expect(outcome.result.n).toBe(9);
    expect(outcome.result.infraErrors).toBe(1);
    expect(outcome.result.tasks.map((task) => task.taskId)).not.toContain("t3");
    expect(outcome.records.map((record) => record.taskId)).not.toContain("t3");
    expect(await countCachedRollouts(join(dir, "rollouts"))).toBe(9);
  });

  it("a connection dropped mid-body on every attempt is an infrastructure error, never scored", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-llm-faults-"));
    const outcome = await evaluation({
      dir,
      reply: (body) =>
        JSON.stringify(body).includes("What is 5 + 2?")
          ? { kind: "drop", stage: "mid-body" }
          : answer(body),
    });
    expect(outcome.result).toMatchObject({ accuracy: 1, n: 9, infraErrors: 1 });
  });
});
