import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/agent/sandbox/sandbox-probe.js";
import { loadConfig } from "../../src/config/load-config.js";
import { openModels } from "../../src/eval/open-models.js";
import type { EvolveResult } from "../../src/evolve/result-schema.js";
import { runEvolve } from "../../src/evolve/run-evolve.js";
import {
  generateWorldFiles,
  type SimServer,
  serveSimModel,
  startSimServer,
  worldSchema,
} from "../../src/sim/index.js";

// Issue #22's "honest agents still work": a Node agent with dependencies of its own — one in
// its harness folder's node_modules (linked into every candidate), one in the project's
// node_modules (declared in `harness.sandbox.read`) — evolves in the sandbox as it would
// without it.

const world = worldSchema.parse({
  name: "sandboxed-node-agent",
  seed: 29,
  families: [
    { kind: "date-reasoning", counts: { train: 10, heldout: 6 } },
    { kind: "extraction", counts: { train: 10, heldout: 6 } },
  ],
  deficiencies: { systematic: { "format-drift": 0.6 } },
});

/** The agent: its prompt through its own package, the call through the project's. */
const agentScript = `
const { systemPrompt } = require("prompt-kit");
const { chat } = require("chat-kit");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", async () => {
  const task = JSON.parse(input);
  const output = await chat(systemPrompt(process.env.ECDYSIS_HARNESS_DIR), task);
  process.stdout.write(JSON.stringify({ output }));
});`;

const promptKit = `
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
exports.systemPrompt = (dir) => readFileSync(join(dir, "prompts", "system.md"), "utf8");`;

const chatKit = `
exports.chat = async (system, task) => {
  const reply = await fetch(process.env.OPENAI_BASE_URL + "/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer " + (process.env.OPENAI_API_KEY || "unused") },
    body: JSON.stringify({
      model: process.env.ECDYSIS_MODEL,
      temperature: 0,
      seed: task.sampleIndex,
      messages: [{ role: "system", content: system }, { role: "user", content: task.input }],
    }),
  }).then((response) => response.json());
  return reply.choices[0].message.content;
};`;

describe("a Node agent with its own node_modules, sandboxed", () => {
  let server: SimServer;
  let dir: string;
  let result: EvolveResult;

  beforeAll(async () => {
    expect(await probeSandbox()).toMatchObject({ available: true });
    server = await startSimServer({ world, latencyScale: 0 });
    dir = await mkdtemp(path.join(tmpdir(), "ecdysis-node-agent-"));
    const generated = await generateWorldFiles({ world, outDir: path.join(dir, "world") });
    const write = async (file: string, text: string) => {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    };
    await write("agent/agent.js", agentScript);
    await write(
      "agent/prompts/system.md",
      "You are a careful assistant.\nSolve the user's task.\n",
    );
    await write("agent/node_modules/prompt-kit/index.js", promptKit);
    await write("node_modules/chat-kit/index.js", chatKit);
    await write("tasks/train.jsonl", await readFile(generated.train, "utf8"));
    await write("tasks/heldout.jsonl", await readFile(generated.heldout, "utf8"));
    await write(
      "ecdysis.yml",
      [
        `model: { provider: openai, baseUrl: "${server.url}", model: sim-1 }`,
        "harness:",
        "  kind: command",
        "  dir: agent",
        "  command: [node, agent.js]",
        "  editable: [prompts/*.md]",
        "  sandbox: { mode: required, read: [node_modules] }",
        "tasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }",
        "evolve: { maxIterations: 2 }",
        "concurrency: 6",
        "",
      ].join("\n"),
    );
    const loaded = await loadConfig(path.join(dir, "ecdysis.yml"));
    const models = await openModels(loaded, { simServer: serveSimModel });
    try {
      result = await runEvolve({ loaded, outDir: path.join(dir, "out"), models });
    } finally {
      await models.close();
    }
  }, 300_000);

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("runs sandboxed, finds both its packages, and evolves its prompt to a higher held-out accuracy", async () => {
    expect(result.sandbox).toEqual({ mode: "required", engine: "bubblewrap" });
    // A missing package crashes every rollout: a process-error in the journal, accuracy 0.
    const journal = await readFile(path.join(dir, "out", "journal.jsonl"), "utf8");
    expect(journal).not.toMatch(/process-error|Cannot find module/);
    expect(result.baseline.heldout.accuracy).toBeGreaterThan(0);
    expect(result.final.heldout.accuracy).toBeGreaterThan(result.baseline.heldout.accuracy);
    expect(result.harness.changedFiles.map((file) => file.path)).toEqual(["prompts/system.md"]);
  });
});
