import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { latencyMs } from "./latency.js";
import { loadWorld } from "./load-world.js";
import { type SimServer, type SimServerOptions, startSimServer } from "./server.js";
import { generateWorld } from "./task-generation.js";

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Partial<SimServerOptions> = {}) {
  const world = await loadWorld("quickstart");
  const server = await startSimServer({ world, latencyScale: 0, ...options });
  servers.push(server);
  const client = new OpenAI({ baseURL: server.url, apiKey: "sim", maxRetries: 2 });
  return { world, server, client };
}

const lookupTool = {
  type: "function" as const,
  function: {
    name: "lookup",
    description: "Look up a registry entry",
    parameters: { type: "object", properties: { key: { type: "string" } } },
  },
};

const diagnosisRequest = (patterns: unknown[]) => ({
  model: "sim-1",
  messages: [
    {
      role: "user" as const,
      content: `Diagnose.\n\n\`\`\`json\n${JSON.stringify({ patterns, harness: {} })}\n\`\`\``,
    },
  ],
  response_format: {
    type: "json_schema" as const,
    json_schema: { name: "diagnosis", schema: { type: "object" } },
  },
});

describe("sim server through the real openai SDK", () => {
  it("answers agent requests with native tool calls, usage and the model name", async () => {
    const { world, server, client } = await start();
    const task = generateWorld(world).train.find((entry) => entry.category === "multi-hop");
    const completion = await client.chat.completions.create({
      model: "sim-1",
      messages: [
        { role: "system", content: "Be helpful." },
        { role: "user", content: task?.input ?? "" },
      ],
      tools: [lookupTool],
      seed: 0,
    });
    const message = completion.choices[0].message;
    expect(completion.choices[0].finish_reason).toBe("tool_calls");
    expect(message.tool_calls?.[0]).toMatchObject({
      type: "function",
      function: { name: "lookup" },
    });
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(completion.model).toBe("sim-1");
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(["sim-1"]);
    expect(server.requests()).toBe(1);
  });

  it("answers role requests with JSON by schema name", async () => {
    const { client } = await start();
    const completion = await client.chat.completions.create(
      diagnosisRequest([{ id: "p1", name: "x", support: { tasks: 5 }, examples: [] }]),
    );
    const value = JSON.parse(completion.choices[0].message.content ?? "") as {
      diagnoses: { patternId: string }[];
    };
    expect(value.diagnoses[0].patternId).toBe("p1");
  });

  it("emulates the fenced-json, prose-json and ignore-response-format quirks", async () => {
    const patterns = [{ id: "p1", name: "x", support: { tasks: 5 }, examples: [] }];
    for (const [quirk, pattern] of [
      ["fenced-json", /^```json\n\{[\s\S]*\}\n```$/],
      ["prose-json", /^Sure, here is the JSON you asked for:\n\{.*\}\nI hope this helps\.$/],
      [
        "ignore-response-format",
        /^Here is my analysis\.\n\n```json\n[\s\S]*"patternId": "p1"[\s\S]*```/,
      ],
    ] as const) {
      const { client } = await start({ quirks: [quirk] });
      const completion = await client.chat.completions.create(diagnosisRequest(patterns));
      expect(completion.choices[0].message.content, quirk).toMatch(pattern);
    }
  });

  it("no-native-tools: ignores offered tools, speaks the text protocol when ## Tools is present", async () => {
    const { world, client } = await start({ quirks: ["no-native-tools"] });
    const task = generateWorld(world).train.find((entry) => entry.category === "multi-hop");
    const completion = await client.chat.completions.create({
      model: "sim-1",
      messages: [
        {
          role: "system",
          content: 'Be helpful.\n\n## Tools\n- lookup: find an entry. Arguments: {"key": "..."}',
        },
        { role: "user", content: task?.input ?? "" },
      ],
      tools: [lookupTool],
    });
    expect(completion.choices[0].message.tool_calls).toBeUndefined();
    expect(completion.choices[0].message.content).toMatch(/^CALL lookup \{"key":/m);
  });

  it("injects 429 (with Retry-After) and 500 faults that the SDK retries through", async () => {
    const { client, server } = await start({
      faults: { status429Every: 2, retryAfterSeconds: 0, status500Every: 5 },
    });
    const patterns = [{ id: "p1", name: "x", support: { tasks: 5 }, examples: [] }];
    const first = await client.chat.completions.create(diagnosisRequest(patterns));
    const second = await client.chat.completions.create(diagnosisRequest(patterns));
    expect(second.choices[0].message.content).toBe(first.choices[0].message.content);
    expect(server.requests()).toBe(3);
    const post = () =>
      fetch(`${server.url}/chat/completions`, {
        method: "POST",
        body: JSON.stringify(diagnosisRequest(patterns)),
      });
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("0");
    expect((await post()).status).toBe(500);
  });

  it("rejects malformed bodies with a 400 and an OpenAI-style error", async () => {
    const { server } = await start();
    const response = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { type: string } }).error.type).toBe(
      "invalid_request_error",
    );
  });

  it("writes request-level ground truth to the given path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "sim-truth-"));
    const path = join(dir, "truth.jsonl");
    const { world, client, server } = await start({ groundTruthPath: path });
    const generated = generateWorld(world);
    const drifting = generated.truth.find(
      (entry) =>
        entry.deficiencies.some((d) => d.kind === "format-drift") &&
        entry.family === "date-reasoning",
    );
    const task = generated.train
      .concat(generated.heldout)
      .find((entry) => entry.id === drifting?.id);
    await client.chat.completions.create({
      model: "sim-1",
      messages: [{ role: "user", content: task?.input ?? "" }],
    });
    await server.close();
    servers.splice(0);
    const lines = (await readFile(path, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { hits: string[]; key: string });
    expect(lines).toHaveLength(1);
    expect(lines[0].hits).toContain("format-drift");
    expect(lines[0].key).toMatch(/^[0-9a-f]{16}$/);
  });

  it("latency model: fixed plus per token, times the scale", async () => {
    const world = await loadWorld("quickstart");
    expect(latencyMs(world, 100)).toBeCloseTo((600 + 10 * 100) * 0.05);
    expect(latencyMs(world, 100, 0)).toBe(0);
  });
});
