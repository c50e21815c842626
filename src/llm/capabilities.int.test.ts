import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ModelConfig } from "../config/config-schema.js";
import { loadTasks } from "../config/load-tasks.js";
import { TransportError } from "../errors/transport-error.js";
import {
  generateWorldFiles,
  loadWorld,
  type SimEndpoint,
  type SimServer,
  startSimServer,
} from "../sim/index.js";
import type { Quirk } from "../sim/world-schema.js";
import { CapabilityMemory } from "./capability-memory.js";
import { CapabilityState } from "./capability-state.js";
import { chatJson } from "./chat-json.js";
import { createProvider } from "./openai-provider.js";
import { strictJsonSchema } from "./strict-json-schema.js";
import { testModelConfig } from "./testing/model-config.js";
import { RecordingClock } from "./testing/recording-clock.js";
import type { ChatRequest } from "./types.js";

// Every capability step through the real `openai` SDK against the sim answering exactly as the
// real services refuse what they cannot do (src/sim/endpoint-behaviour.ts).

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: { quirks?: Quirk[]; endpoint?: SimEndpoint; model?: string } = {}) {
  const server = await startSimServer({ world, latencyScale: 0, ...options });
  servers.push(server);
  return server;
}

function provider(
  server: SimServer,
  overrides: Partial<ModelConfig> = {},
  extra: { apiKey?: string; baseUrl?: string; capabilities?: CapabilityState } = {},
) {
  const baseUrl = extra.baseUrl ?? server.url;
  return createProvider({
    config: testModelConfig(baseUrl, { model: "sim-1", maxRetries: 0, ...overrides }),
    baseUrl,
    apiKey: extra.apiKey,
    capabilities: extra.capabilities,
    clock: new RecordingClock(),
  });
}

const notesSchema = z.object({
  notes: z.array(z.object({ id: z.string(), note: z.string(), cause: z.string() })),
});
const evidence = {
  failures: [
    {
      id: "arith-1",
      task: "A crate holds 17 boxes of 23 apples. How many apples?",
      output: "About 390 apples. Answer: 390",
      answer: "390",
      expected: "391",
      verdict: "wrong-answer",
      events: [],
      toolCalls: [],
      steps: 1,
    },
  ],
};
const structured = {
  messages: [
    { role: "system" as const, content: "Write one short failure note per failed rollout." },
    {
      role: "user" as const,
      content: `Evidence:\n\n\`\`\`json\n${JSON.stringify(evidence)}\n\`\`\``,
    },
  ],
  jsonSchema: { name: "failure_notes", schema: strictJsonSchema(notesSchema) },
  purpose: "failure-notes",
};
const world = await loadWorld("quickstart");
const worldFiles = await generateWorldFiles({
  world,
  outDir: await mkdtemp(join(tmpdir(), "ecdysis-world-")),
});
const chain = (await loadTasks(worldFiles.train)).find((task) => task.category === "multi-hop");
const lookup: ChatRequest = {
  messages: [
    { role: "system", content: "End with a final line 'Answer: <value>'." },
    { role: "user", content: chain?.input ?? "" },
  ],
  tools: [
    {
      name: "lookup",
      description: "Looks up a registry entry.",
      parameters: { type: "object", properties: { key: { type: "string" } } },
    },
  ],
  seed: 0,
  purpose: "agent",
};

describe("capability steps against servers that refuse like the real ones", () => {
  it("tools refused (Ollama's 400): the same request goes out in the text protocol, calls come back native", async () => {
    const plain = await serve();
    const native = await provider(plain).chat(lookup);
    const ollama = await serve({ quirks: ["rejects-tools"] });
    const chat = provider(ollama);
    const reply = await chat.chat(lookup);
    expect(reply.toolCalls.map((call) => [call.name, call.arguments])).toEqual(
      native.toolCalls.map((call) => [call.name, call.arguments]),
    );
    expect(reply.content).toBe(native.content);
    expect(chat.downgrades()).toMatchObject([
      { parameter: "tools", from: "native", to: "text", reason: "sim-1 does not support tools" },
    ]);
    // The step is taken once: the next call goes out in the text protocol at once.
    const before = ollama.requests();
    await chat.chat(lookup);
    expect(ollama.requests() - before).toBe(1);
  });

  it("json_schema refused (JSON mode only): json_object with the schema in the prompt, the same value", async () => {
    const baseline = await chatJson(provider(await serve()), structured, notesSchema);
    const jsonMode = await serve({ quirks: ["rejects-json-schema"] });
    const chat = provider(jsonMode);
    const result = await chatJson(chat, structured, notesSchema);
    expect(result.value).toEqual(baseline.value);
    expect(chat.downgrades()).toMatchObject([
      { parameter: "response_format", from: "json_schema", to: "json_object" },
    ]);
    expect(jsonMode.requests()).toBe(2);
  });

  it("a reasoning model refuses max_tokens, then temperature 0: each stepped down once, in one call", async () => {
    const reasoning = await serve({ quirks: ["reasoning-model"] });
    const chat = provider(reasoning, { model: "sim-1", temperature: 0 });
    const result = await chatJson(chat, structured, notesSchema);
    expect(result.value.notes[0].id).toBe("arith-1");
    expect(chat.downgrades().map((step) => [step.parameter, step.from, step.to])).toEqual([
      ["max_tokens", "max_tokens", "max_completion_tokens"],
      ["temperature", "sent", "omitted"],
    ]);
    expect(reasoning.requests()).toBe(3);
    await chat.chat(lookup);
    expect(reasoning.requests()).toBe(4);
  });

  it("a known reasoning family (o-series, GPT-5) starts right: no refusal at all", async () => {
    for (const model of ["o3-mini", "gpt-5", "openai/o4-mini"]) {
      const reasoning = await serve({ quirks: ["reasoning-model"], model });
      const chat = provider(reasoning, { model });
      await chat.chat(lookup);
      expect(chat.downgrades(), model).toEqual([]);
      expect(reasoning.requests(), model).toBe(1);
    }
  });

  it("all refusals at once: every step taken, the structured value and the tool calls unchanged", async () => {
    const plain = await serve();
    const baseline = await chatJson(provider(plain), structured, notesSchema);
    const nativeReply = await provider(plain).chat(lookup);
    const strict = await serve({
      quirks: ["rejects-tools", "rejects-json-schema", "reasoning-model"],
    });
    const chat = provider(strict);
    expect((await chatJson(chat, structured, notesSchema)).value).toEqual(baseline.value);
    const reply = await chat.chat(lookup);
    expect(reply.toolCalls.map((call) => call.name)).toEqual(
      nativeReply.toolCalls.map((call) => call.name),
    );
    expect(
      chat
        .downgrades()
        .map((step) => step.parameter)
        .sort(),
    ).toEqual(["max_tokens", "response_format", "temperature", "tools"]);
  });

  it("a setting the config fixes is never stepped down: the call fails and says what to change", async () => {
    const ollama = await serve({ quirks: ["rejects-tools"] });
    const chat = provider(ollama, {
      capabilities: {
        tools: "native",
        structuredOutput: "auto",
        tokenLimit: "auto",
        temperature: "auto",
        seed: "auto",
      },
    });
    const error = await chat.chat(lookup).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toContain("sim-1 does not support tools");
    expect((error as Error).message).toContain("set model.capabilities.tools to text");
    expect(chat.downgrades()).toEqual([]);
    expect(ollama.requests()).toBe(1);
  });

  it("remembers a step in the cache: the next run starts with it and pays no second 400", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-capabilities-"));
    const path = join(dir, "endpoints.json");
    const ollama = await serve({ quirks: ["rejects-tools"] });
    const config = testModelConfig(ollama.url, { model: "sim-1" });
    const first = provider(
      ollama,
      {},
      {
        capabilities: new CapabilityState({
          config,
          endpoint: "ollama",
          memory: await CapabilityMemory.open(path),
        }),
      },
    );
    await first.chat(lookup);
    expect(ollama.requests()).toBe(2);
    expect(JSON.parse(await readFile(path, "utf8")).downgrades).toMatchObject([
      { endpoint: "ollama", model: "sim-1", parameter: "tools", from: "native", to: "text" },
    ]);
    const second = provider(
      ollama,
      {},
      {
        capabilities: new CapabilityState({
          config,
          endpoint: "ollama",
          memory: await CapabilityMemory.open(path),
        }),
      },
    );
    await second.chat(lookup);
    expect(ollama.requests()).toBe(3);
    expect(second.downgrades()).toMatchObject([{ parameter: "tools", remembered: true }]);
  });
});

describe("endpoints that are not OpenAI's", () => {
  const azure: SimEndpoint = {
    azure: { apiVersions: ["2024-10-21"] },
    apiKey: "azure-key-0123456789abcdef",
  };

  it("Azure classic deployment URL: api-version in the query, the key in api-key, no Authorization", async () => {
    const server = await serve({ endpoint: azure });
    const deployment = `${server.url}/deployments/sim-1`;
    // On *.openai.azure.com hosts `auth: api-key` is the default; a loopback host needs saying so.
    const chat = provider(
      server,
      { apiVersion: "2024-10-21", auth: "api-key" },
      { baseUrl: deployment, apiKey: azure.apiKey },
    );
    const reply = await chat.chat(lookup);
    expect(reply.toolCalls.length + (reply.content ? 1 : 0)).toBeGreaterThan(0);
    expect(await chat.check()).toEqual({ listed: undefined });
    const headers = server.requestHeaders()[0];
    expect(headers["api-key"]).toBe(azure.apiKey);
    expect(headers.authorization).toBeUndefined();
  });

  it("Azure without the api-version it needs: the check fails in one line with Azure's 404 and the fix", async () => {
    const server = await serve({ endpoint: azure });
    const chat = provider(
      server,
      {},
      { baseUrl: `${server.url}/deployments/sim-1`, apiKey: azure.apiKey },
    );
    const error = await chat.check().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    const message = (error as Error).message;
    expect(message).toContain("Resource not found");
    expect(message).toContain("model.apiVersion");
    expect(message).not.toContain("\n");
    expect(message).not.toContain(azure.apiKey);
  });

  it("Azure's /openai/v1/ route: no api-version needed, key in api-key", async () => {
    const server = await serve({ endpoint: azure });
    const chat = provider(
      server,
      { auth: "api-key" },
      { baseUrl: `${server.url}/v1`, apiKey: azure.apiKey },
    );
    await chat.check();
    await chat.chat(lookup);
    expect(server.requestHeaders().every((headers) => headers["api-key"] === azure.apiKey)).toBe(
      true,
    );
  });

  it("a wrong key gets OpenAI's 401, its whole message and the key redacted", async () => {
    const server = await serve({ endpoint: { apiKey: "sk-right-0123456789" } });
    const chat = provider(server, {}, { apiKey: "sk-wrong-9876543210" });
    const error = (await chat.check().catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain("Incorrect API key provided: sk-***3210");
    expect(error.message).toContain(
      "You can find your API key at https://platform.openai.com/account/api-keys.",
    );
    expect(error.message).not.toContain("sk-wrong-9876543210");
  });

  it("extra headers (OpenRouter's) and extra body fields reach the server", async () => {
    const server = await serve();
    const chat = provider(server, {
      headers: { "HTTP-Referer": "https://github.com/acme/agent", "X-Title": "Ecdysis" },
      extraBody: { top_k: 20 },
    });
    await chat.chat(lookup);
    const headers = server.requestHeaders()[0];
    expect(headers["http-referer"]).toBe("https://github.com/acme/agent");
    expect(headers["x-title"]).toBe("Ecdysis");
    expect(headers.authorization).toBeUndefined();
  });
});

describe("the rest of the ladders, against a server that does not know a field at all", () => {
  it("no response_format at all: json_schema → json_object → the schema in the prompt, same value", async () => {
    const baseline = await chatJson(provider(await serve()), structured, notesSchema);
    const bare = await serve({ endpoint: { rejectFields: ["response_format"] } });
    const chat = provider(bare);
    expect((await chatJson(chat, structured, notesSchema)).value).toEqual(baseline.value);
    expect(chat.downgrades().map((step) => `${step.from} → ${step.to}`)).toEqual([
      "json_schema → json_object",
      "json_object → prompt",
    ]);
    expect(bare.requests()).toBe(3);
  });

  it("a server that knows max_tokens only: max_completion_tokens (a reasoning family's start) → max_tokens", async () => {
    const old = await serve({
      endpoint: { rejectFields: ["max_completion_tokens"] },
      model: "o3-mini",
    });
    const chat = provider(old, { model: "o3-mini" });
    await chat.chat(lookup);
    expect(chat.downgrades().map((step) => `${step.parameter}: ${step.from} → ${step.to}`)).toEqual(
      ["max_completion_tokens: max_completion_tokens → max_tokens"],
    );
  });

  it("neither token-limit field: the limit is left out", async () => {
    const none = await serve({
      endpoint: { rejectFields: ["max_tokens", "max_completion_tokens"] },
    });
    const chat = provider(none);
    await chat.chat(lookup);
    expect(chat.downgrades().map((step) => step.to)).toEqual(["max_completion_tokens", "none"]);
  });

  it("no seed: dropped (samples then differ only by the server's own sampling)", async () => {
    const unseeded = await serve({ endpoint: { rejectFields: ["seed"] } });
    const chat = provider(unseeded);
    await chat.chat(lookup);
    expect(chat.downgrades()).toMatchObject([{ parameter: "seed", from: "sent", to: "omitted" }]);
  });

  it("Gemini refuses seed with an array body: recognised, dropped, remembered; a config switch never sends it", async () => {
    const gemini = await serve({ quirks: ["rejects-seed"] });
    const memory = CapabilityMemory.inMemory();
    const endpoint = new CapabilityState({
      config: testModelConfig(gemini.url, { model: "sim-1" }),
      endpoint: gemini.url,
      memory,
    });
    const chat = provider(gemini, {}, { capabilities: endpoint });
    const reply = await chat.chat(lookup);
    expect(reply.toolCalls.length + (reply.content ? 1 : 0)).toBeGreaterThan(0);
    expect(chat.downgrades()).toMatchObject([
      {
        parameter: "seed",
        from: "sent",
        to: "omitted",
        reason: expect.stringContaining('Unknown name "seed"'),
      },
    ]);
    const before = gemini.requests();
    const next = provider(
      gemini,
      {},
      {
        capabilities: new CapabilityState({
          config: testModelConfig(gemini.url, { model: "sim-1" }),
          endpoint: gemini.url,
          memory,
        }),
      },
    );
    await next.chat(lookup);
    expect(gemini.requests() - before).toBe(1);
    const never = provider(gemini, {
      capabilities: {
        tools: "auto",
        structuredOutput: "auto",
        tokenLimit: "auto",
        temperature: "auto",
        seed: "omit",
      },
    });
    await never.chat(lookup);
    expect(never.downgrades()).toEqual([]);
  });

  it("what the config asks for explicitly (reasoningEffort, extraBody) is never dropped: the call fails", async () => {
    const plainer = await serve({ endpoint: { rejectFields: ["reasoning_effort", "top_k"] } });
    const effort = await provider(plainer, { reasoningEffort: "low" })
      .chat(lookup)
      .then(
        () => new Error("no refusal"),
        (caught: unknown) => caught as Error,
      );
    expect(effort.message).toContain("Unrecognized request argument supplied: reasoning_effort");
    expect(effort.message).toContain("remove model.reasoningEffort");
    const extra = await provider(plainer, { extraBody: { top_k: 20 } })
      .chat(lookup)
      .then(
        () => new Error("no refusal"),
        (caught: unknown) => caught as Error,
      );
    expect(extra.message).toContain("remove 'top_k' from model.extraBody");
  });
});
