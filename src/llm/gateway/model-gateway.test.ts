import { mkdtemp, rm, stat } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import type { ModelConfig } from "../../config/config-schema.js";
import { CapabilityState } from "../capability-state.js";
import {
  type FakeOpenAIServer,
  type FakeReply,
  startFakeOpenAIServer,
} from "../testing/fake-openai-server.js";
import { testModelConfig } from "../testing/model-config.js";
import { RecordingClock } from "../testing/recording-clock.js";
import { type ModelGateway, startModelGateway } from "./model-gateway.js";
import { createWireForwarder } from "./wire-forwarder.js";

const realKey = "sk-real-SECRET-0a1b2c3d4e5f60718293";
let fake: FakeOpenAIServer | undefined;
let gateway: ModelGateway | undefined;
const dirs: string[] = [];

afterEach(async () => {
  await gateway?.close();
  await fake?.close();
  gateway = undefined;
  fake = undefined;
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function setup(
  replies: FakeReply[] | ((request: { path: string; body: unknown }) => FakeReply | undefined),
  options: { overrides?: Partial<ModelConfig>; cache?: string; anyPath?: boolean } = {},
) {
  fake = await startFakeOpenAIServer({ replies, anyPath: options.anyPath });
  const clock = new RecordingClock();
  const config = testModelConfig(fake.url, {
    model: "served-model",
    price: { promptPerMTok: 1, completionPerMTok: 2 },
    ...options.overrides,
  });
  const capabilities = new CapabilityState({ config, endpoint: fake.url });
  const upstream = createWireForwarder({
    config,
    baseUrl: fake.url,
    apiKey: realKey,
    clock,
    capabilities,
  });
  gateway = await startModelGateway({ upstreams: [upstream], cacheDir: options.cache });
  return { fake, gateway, clock, capabilities };
}

const sdk = (token: string, baseURL = gateway?.baseUrl) =>
  new OpenAI({ apiKey: token, baseURL, maxRetries: 0 });
const ask = { model: "agent-picked-model", messages: [{ role: "user" as const, content: "2+2?" }] };
const reply = (content: string, usage = { promptTokens: 11, completionTokens: 3 }): FakeReply => ({
  kind: "completion",
  content,
  usage,
});

describe("the model gateway", () => {
  it("forwards with the real key, serves the configured model and meters the rollout exactly", async () => {
    const { fake, gateway } = await setup([reply("4")]);
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const completion = await sdk(lease.token).chat.completions.create(ask);
    expect(completion.choices[0].message.content).toBe("4");
    const sent = fake.requests[0];
    expect(sent.headers.authorization).toBe(`Bearer ${realKey}`);
    expect((sent.body as { model: string }).model).toBe("served-model");
    expect(JSON.stringify(sent)).not.toContain(lease.token);
    const tally = lease.close();
    expect(tally).toMatchObject({
      calls: 1,
      promptTokens: 11,
      completionTokens: 3,
      replayed: 0,
      otherModels: ["agent-picked-model"],
    });
    expect(tally.costUsd).toBeCloseTo((11 * 1 + 3 * 2) / 1e6, 12);
    expect(tally.failure).toBeUndefined();
  });

  it("honours retry-after-ms on 429 and 503 so the agent sees one answer", async () => {
    const { fake, gateway, clock } = await setup([
      {
        kind: "error",
        status: 429,
        error: { message: "slow down" },
        headers: { "retry-after-ms": "250" },
      },
      {
        kind: "error",
        status: 503,
        error: { message: "overloaded" },
        headers: { "retry-after": "2" },
      },
      reply("4"),
    ]);
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const completion = await sdk(lease.token).chat.completions.create(ask);
    expect(completion.choices[0].message.content).toBe("4");
    expect(fake.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([250, 2000]);
    expect(lease.close()).toMatchObject({ calls: 1, retries: 2, promptTokens: 11 });
  });

  it("records a call that still failed after the retries on the lease and tells the agent why", async () => {
    const down: FakeReply = { kind: "error", status: 503, error: { message: "overloaded" } };
    const { gateway } = await setup([down, down], { overrides: { maxRetries: 1 } });
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const error = await sdk(lease.token)
      .chat.completions.create(ask)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect(String((error as Error).message)).toMatch(
      /Ecdysis gateway: LLM call to .* failed after 2 attempt\(s\), last: 503/,
    );
    const tally = lease.close();
    expect(tally.calls).toBe(0);
    expect(tally.failure?.details.retryable).toBe(true);
  });

  it("passes the endpoint's refusal of the agent's own request back unchanged, not as a failure", async () => {
    const { gateway } = await setup([
      {
        kind: "error",
        status: 400,
        error: {
          message: "This model's maximum context length is 8192 tokens",
          type: "invalid_request_error",
        },
      },
    ]);
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const error = await sdk(lease.token)
      .chat.completions.create(ask)
      .catch((caught: unknown) => caught);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect(String((error as Error).message)).toContain("maximum context length");
    const tally = lease.close();
    expect(tally.refused).toBe(1);
    expect(tally.failure).toBeUndefined();
  });

  it("steps a refused parameter down in the shared capability state and re-sends", async () => {
    const { fake, gateway, capabilities } = await setup([
      {
        kind: "error",
        status: 400,
        error: {
          message: "Unsupported value: 'temperature' does not support 0 with this model.",
          type: "invalid_request_error",
        },
      },
      reply("4"),
      reply("5"),
    ]);
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const client = sdk(lease.token);
    await client.chat.completions.create({ ...ask, temperature: 0 });
    await client.chat.completions.create({ ...ask, temperature: 0, seed: 3 });
    const bodies = fake.requests.map((request) => request.body as Record<string, unknown>);
    expect(bodies.map((body) => "temperature" in body)).toEqual([true, false, false]);
    expect(bodies[2].seed).toBe(3);
    expect(capabilities.downgrades().map((step) => step.parameter)).toEqual(["temperature"]);
    expect(lease.close()).toMatchObject({ calls: 2 });
  });
});

describe("the model gateway's cache", () => {
  it("replays a rollout's answered calls to a resumed run and keeps samples and repeats apart", async () => {
    const cache = await mkdtemp(join(tmpdir(), "ecdysis-gateway-cache-"));
    dirs.push(cache);
    let n = 0;
    const first = await setup(() => reply(`answer ${++n}`), { cache });
    const lease = first.gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const client = sdk(lease.token);
    const once = await client.chat.completions.create(ask);
    const twice = await client.chat.completions.create(ask);
    expect([once, twice].map((c) => c.choices[0].message.content)).toEqual([
      "answer 1",
      "answer 2",
    ]);
    const otherSample = first.gateway.openRollout({ model: "served-model", sampleIndex: 1 });
    expect(
      (await sdk(otherSample.token).chat.completions.create(ask)).choices[0].message.content,
    ).toBe("answer 3");
    expect(lease.close()).toMatchObject({ calls: 2, replayed: 0 });
    otherSample.close();
    await first.gateway.close();
    await first.fake.close();
    // A new run (a resumed one) on the same cache: the same rollout's calls replay, in order.
    const second = await setup(() => reply("never asked"), { cache });
    const again = second.gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const replay = sdk(again.token);
    const contents = [
      await replay.chat.completions.create(ask),
      await replay.chat.completions.create({ ...ask, stream: false }),
    ];
    expect(contents.map((c) => c.choices[0].message.content)).toEqual(["answer 1", "answer 2"]);
    expect(second.fake.requests).toHaveLength(0);
    expect(again.close()).toMatchObject({ calls: 0, replayed: 2, promptTokens: 0 });
  });

  it("caches nothing of a call that failed", async () => {
    const cache = await mkdtemp(join(tmpdir(), "ecdysis-gateway-cache-"));
    dirs.push(cache);
    const { gateway, fake } = await setup(
      [{ kind: "error", status: 503, error: { message: "down" } }, reply("4")],
      { cache, overrides: { maxRetries: 0 } },
    );
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    await sdk(lease.token)
      .chat.completions.create(ask)
      .catch(() => undefined);
    const retried = await sdk(lease.token).chat.completions.create(ask);
    expect(retried.choices[0].message.content).toBe("4");
    expect(fake.requests).toHaveLength(2);
  });
});

describe("the model gateway's surface", () => {
  it("streams chat completions the SDK accumulates into the same message, with usage", async () => {
    const { fake, gateway } = await setup([
      {
        kind: "completion",
        content: "Let me compute.",
        toolCalls: [{ id: "call_1", name: "calculator", arguments: '{"expression":"6*7"}' }],
        usage: { promptTokens: 20, completionTokens: 9 },
      },
    ]);
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const stream = sdk(lease.token).chat.completions.stream({
      ...ask,
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0].message.content).toBe("Let me compute.");
    expect(final.choices[0].message.tool_calls?.[0]).toMatchObject({
      id: "call_1",
      function: { name: "calculator", arguments: '{"expression":"6*7"}' },
    });
    expect(final.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 9 });
    const upstream = fake.requests[0].body as Record<string, unknown>;
    expect(upstream.stream).toBeUndefined();
    expect(upstream.stream_options).toBeUndefined();
    expect(lease.close()).toMatchObject({ calls: 1, promptTokens: 20, completionTokens: 9 });
  });

  it("forwards the Responses API, streamed or not, and meters its usage", async () => {
    const response = {
      id: "resp_1",
      object: "response",
      created_at: 0,
      status: "completed",
      model: "served-model",
      output: [
        {
          type: "function_call",
          id: "fc_1",
          call_id: "call_1",
          name: "calculator",
          arguments: '{"expression":"6*7"}',
          status: "completed",
        },
        {
          type: "message",
          id: "msg_1",
          role: "assistant",
          status: "completed",
          content: [{ type: "output_text", text: "Answer: 42", annotations: [] }],
        },
      ],
      usage: { input_tokens: 30, output_tokens: 12, total_tokens: 42 },
    };
    const body: FakeReply = { kind: "body", body: JSON.stringify(response) };
    const { fake, gateway } = await setup([body, body], { anyPath: true });
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const client = sdk(lease.token);
    const plain = await client.responses.create({ model: "x", input: "6*7?" });
    expect(plain.output_text).toBe("Answer: 42");
    const streamed = await client.responses.stream({ model: "x", input: "6*7?" }).finalResponse();
    expect(streamed.output).toMatchObject(response.output);
    expect(streamed.output_text).toBe("Answer: 42");
    expect(fake.requests.map((request) => request.path)).toEqual([
      "/v1/responses",
      "/v1/responses",
    ]);
    expect(lease.close()).toMatchObject({ calls: 2, promptTokens: 60, completionTokens: 24 });
  });

  it("refuses a closed or unknown token, names a route it does not forward, lists the served model", async () => {
    const { gateway } = await setup([]);
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const client = sdk(lease.token);
    expect((await client.models.list()).data.map((model) => model.id)).toEqual(["served-model"]);
    const route = await client
      .post("/audio/speech", { body: {} })
      .catch((caught: unknown) => caught);
    expect((route as InstanceType<typeof OpenAI.APIError>).status).toBe(404);
    expect(String((route as Error).message)).toContain(
      "POST /v1/audio/speech is not forwarded by the Ecdysis gateway",
    );
    lease.close();
    const closed = await client.chat.completions.create(ask).catch((caught: unknown) => caught);
    expect((closed as InstanceType<typeof OpenAI.APIError>).status).toBe(401);
    const unknown = await sdk("sk-anything")
      .models.list()
      .catch((caught: unknown) => caught);
    expect((unknown as InstanceType<typeof OpenAI.APIError>).status).toBe(401);
  });

  it("answers on its unix socket too, in a folder only its user may enter", async () => {
    const { gateway } = await setup([reply("4")]);
    expect((await stat(join(gateway.socketPath, ".."))).mode & 0o777).toBe(0o700);
    const lease = gateway.openRollout({ model: "served-model", sampleIndex: 0 });
    const body = await new Promise<string>((resolve, reject) => {
      const sent = httpRequest(
        {
          socketPath: gateway.socketPath,
          path: "/v1/chat/completions",
          method: "POST",
          headers: { authorization: `Bearer ${lease.token}`, "content-type": "application/json" },
        },
        (response) => {
          let text = "";
          response.on("data", (chunk) => {
            text += chunk;
          });
          response.on("end", () => resolve(text));
        },
      );
      sent.on("error", reject);
      sent.end(JSON.stringify(ask));
    });
    expect(JSON.parse(body).choices[0].message.content).toBe("4");
    expect(lease.close().calls).toBe(1);
  });

  it("removes the socket folder when it closes", async () => {
    const { gateway } = await setup([]);
    const folder = join(gateway.socketPath, "..");
    await gateway.close();
    await expect(stat(folder)).rejects.toThrow();
  });
});
