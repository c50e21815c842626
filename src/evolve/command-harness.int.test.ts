import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { promptFileAgentScript } from "../agent/testing/prompt-file-agent.js";
import { loadConfig } from "../config/load-config.js";
import { openModels } from "../eval/open-models.js";
import {
  generateWorldFiles,
  type SimServer,
  serveSimModel,
  startSimServer,
  worldSchema,
} from "../sim/index.js";
import { type RecordingProxy, startRecordingProxy } from "../sim/testing/recording-proxy.js";
import type { EvolveResult } from "./result-schema.js";
import { runEvolve } from "./run-evolve.js";

// #13 item 1 on the wire: a user's agent in a child process reads its system prompt from the
// folder Ecdysis runs it in, and calls the model over HTTP through a recording proxy. The
// question is what the agent process really sent while a candidate was being validated.

const seedPrompt = "You are a careful assistant.\nSolve the user's task.\n";

const world = worldSchema.parse({
  name: "command-candidates",
  seed: 23,
  families: [
    { kind: "date-reasoning", counts: { train: 10, heldout: 6 } },
    { kind: "extraction", counts: { train: 10, heldout: 6 } },
  ],
  deficiencies: { systematic: { "format-drift": 0.6 } },
});

/** System prompts of the agent's chat requests (the roles' requests carry a response_format). */
function agentPrompts(proxy: RecordingProxy): string[] {
  return proxy.recorded().flatMap(({ body }) => {
    const request = body as {
      messages?: { role: string; content: string }[];
      response_format?: unknown;
    };
    if (request.response_format || !request.messages) return [];
    return request.messages.filter((m) => m.role === "system").map((m) => m.content);
  });
}

describe("evolve a command harness: every candidate runs from its own files", () => {
  let server: SimServer;
  let proxy: RecordingProxy;
  let dir: string;
  let result: EvolveResult;
  let agentRequests: string[];

  beforeAll(async () => {
    server = await startSimServer({ world, latencyScale: 0 });
    proxy = await startRecordingProxy(server.url);
    dir = await mkdtemp(path.join(tmpdir(), "ecdysis-command-evolve-"));
    // The world's task files as the sim writes them (its ground truth stays out of this test).
    const generated = await generateWorldFiles({ world, outDir: path.join(dir, "world") });
    await mkdir(path.join(dir, "agent", "prompts"), { recursive: true });
    await mkdir(path.join(dir, "tasks"), { recursive: true });
    await writeFile(path.join(dir, "agent", "agent.js"), promptFileAgentScript);
    await writeFile(path.join(dir, "agent", "prompts", "system.md"), seedPrompt);
    await writeFile(path.join(dir, "tasks", "train.jsonl"), await readFile(generated.train));
    await writeFile(path.join(dir, "tasks", "heldout.jsonl"), await readFile(generated.heldout));
    const config = [
      "model:",
      "  provider: openai",
      `  baseUrl: ${proxy.url}`,
      "  apiKeyEnv: OPENAI_API_KEY",
      "  model: sim-1",
      "harness:",
      "  kind: command",
      "  dir: agent",
      `  command: [${JSON.stringify(process.execPath)}, agent.js]`,
      "  editable: [prompts/*.md]",
      "  timeoutMs: 20000",
      "tasks:",
      "  train: tasks/train.jsonl",
      "  heldout: tasks/heldout.jsonl",
      "evolve:",
      "  maxIterations: 2",
      "concurrency: 6",
      "",
    ].join("\n");
    await writeFile(path.join(dir, "ecdysis.yml"), config);
    const loaded = await loadConfig(path.join(dir, "ecdysis.yml"));
    // The agent sends the key of OPENAI_API_KEY, where the gateway puts its per-rollout token.
    const env = { OPENAI_API_KEY: "not-a-secret" };
    const models = await openModels(loaded, { env, simServer: serveSimModel });
    try {
      result = await runEvolve({ loaded, outDir: path.join(dir, "out"), models, env });
    } finally {
      await models.close();
    }
    agentRequests = agentPrompts(proxy);
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("sends the candidate's prompt, not the seed's, while the candidate is validated", async () => {
    const first = result.iterations[0];
    expect(first?.candidateHash).toBeDefined();
    const candidatePrompt = first.applied.find((edit) => edit.edit.kind === "replace_text");
    expect(candidatePrompt).toBeDefined();
    // The candidate's prompt reached the model: its new sentence is in agent requests.
    const instructed = agentRequests.filter((prompt) => prompt.includes("Answer: <value>"));
    expect(instructed.length).toBeGreaterThan(0);
    expect(agentRequests.filter((prompt) => prompt === seedPrompt).length).toBeGreaterThan(0);
    // The validation stages saw a difference, so the change was not pruned as "fixed 0".
    const cheap = first.validation.find((stage) => stage.step === "cheap validation");
    expect(cheap?.comparison?.fixed.length ?? 0).toBeGreaterThan(0);
  });

  it("accepts the edit and raises held-out accuracy; the evolved file is the prompt the agent sent", async () => {
    expect(result.iterations.some((iteration) => iteration.verdict === "accepted")).toBe(true);
    expect(result.final.heldout.accuracy).toBeGreaterThan(result.baseline.heldout.accuracy + 0.2);
    const evolved = await readFile(
      path.join(dir, "out", "harness", "prompts", "system.md"),
      "utf8",
    );
    expect(evolved).not.toBe(seedPrompt);
    expect(agentRequests).toContain(evolved);
  });

  it("cleans the candidates' folders up when the run ends", async () => {
    const cache = path.join(dir, ".ecdysis", "cache");
    const entries = await readdir(path.join(cache, "harnesses")).catch(() => []);
    expect(entries).toEqual([]);
  });
});
