import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, spawnCli } from "../../src/cli/testing/run-cli.js";
import { loadWorld, type SimServer, startSimServer } from "../../src/sim/index.js";

// Issue #10 item 8: secrets a harness prints are scrubbed from every record before it is
// written anywhere (rollout cache, call cache, records.jsonl, journal, result.json, reports).
// The key is Azure-shaped (32 hex): nothing about its shape says "secret", only the config does.

const apiKey = "9d3e1f7a2b6c4d8e0f1a3b5c7d9e2f4a";
const encoded = Buffer.from(apiKey).toString("base64");

/** A command harness (the user's own agent) that prints its API key everywhere it can. */
const agentScript = `
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const task = JSON.parse(input);
  const key = process.env.AZURE_OPENAI_KEY ?? "";
  const basic = Buffer.from(key).toString("base64");
  process.stderr.write("debug: using key " + key + "\\n");
  const output = "config dump: api_key=" + key + " auth=Basic " + basic + "\\nAnswer: 0";
  process.stdout.write(JSON.stringify({
    output,
    trace: {
      steps: [{ assistant: "calling the model with " + key, toolCalls: [], promptTokens: 0, completionTokens: 0, latencyMs: 0 }],
      events: [{ kind: "tool-error", step: 0, detail: "key " + key + " for " + task.id }],
    },
  }));
});
`;

let server: SimServer;
let dir: string;

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Files under `root` that contain the key or its base64 form. */
async function leaking(root: string): Promise<string[]> {
  const leaks: string[] = [];
  for (const file of await filesUnder(root)) {
    const text = await readFile(file, "latin1");
    if (text.includes(apiKey) || text.includes(encoded)) leaks.push(file);
  }
  return leaks;
}

beforeAll(async () => {
  server = await startSimServer({ world: await loadWorld("quickstart"), model: "sim-1" });
  dir = await mkdtemp(join(tmpdir(), "ecdysis-secrets-"));
  expect((await runCli(["init", ".", "--world", "quickstart"], { cwd: dir })).code).toBe(0);
  await writeFile(join(dir, "harness", "agent.mjs"), agentScript);
  await writeFile(join(dir, "harness", "prompt.md"), "Answer the task.\n");
  const config = await readFile(join(dir, "ecdysis.yml"), "utf8");
  await writeFile(
    join(dir, "ecdysis.yml"),
    config
      .replace(
        /model:\n {2}provider: sim.*\n {2}model: sim-1\n {2}world: quickstart\n/,
        `model:\n  provider: openai\n  baseUrl: ${server.url}\n  apiKeyEnv: AZURE_OPENAI_KEY\n  model: sim-1\n`,
      )
      .replace(
        /harness:\n {2}kind: builtin\n {2}dir: harness\n {2}editable: .*\n/,
        "harness:\n  kind: command\n  dir: harness\n  command: [node, agent.mjs]\n  editable: [prompt.md]\n",
      ),
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe("a harness that prints the API key", () => {
  it("leaves no trace of the key under the output and cache folders after eval, evolve and gate", async () => {
    const env = { AZURE_OPENAI_KEY: apiKey };
    const evaluation = await spawnCli(
      ["eval", "--config", "ecdysis.yml", "--split", "all", "--out", "out/eval"],
      { cwd: dir, env },
    );
    expect(evaluation.stderr).not.toContain("error");
    expect(evaluation.code).toBe(0);
    const evolve = await spawnCli(["evolve", "--config", "ecdysis.yml", "--out", "out/evolve"], {
      cwd: dir,
      env,
    });
    expect(evolve.stderr).not.toMatch(/^error|unexpected error/m);
    expect(evolve.code).toBe(0);
    const gate = await spawnCli(
      [
        "gate",
        "--config",
        "ecdysis.yml",
        "--base",
        "harness",
        "--head",
        "out/evolve/harness",
        "--out",
        "out/gate",
      ],
      { cwd: dir, env },
    );
    expect([0, 1]).toContain(gate.code);
    // The harness really printed what its key variable held: since the model gateway (#23) that
    // is its rollout's own token, never the key, which the leak scan below looks for everywhere.
    const records = await readFile(join(dir, "out", "eval", "records.jsonl"), "utf8");
    const printed = /api_key=(\S+)/.exec(records)?.[1] ?? "";
    expect(printed.length).toBeGreaterThan(8);
    expect(printed).not.toBe(apiKey);
    expect(records).toContain("debug: using key ");
    const written = [
      ...(await filesUnder(join(dir, "out"))),
      ...(await filesUnder(join(dir, ".ecdysis"))),
    ];
    expect(written.some((file) => file.endsWith("journal.jsonl"))).toBe(true);
    expect(written.some((file) => file.endsWith("report.html"))).toBe(true);
    expect(written.some((file) => file.includes(join(".ecdysis", "cache", "rollouts")))).toBe(true);
    expect([
      ...(await leaking(join(dir, "out"))),
      ...(await leaking(join(dir, ".ecdysis"))),
    ]).toEqual([]);
    for (const run of [evaluation, evolve, gate])
      expect(run.stdout + run.stderr).not.toContain(apiKey);
  }, 240_000);
});
