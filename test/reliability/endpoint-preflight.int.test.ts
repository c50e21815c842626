import { cp, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot, spawnCli } from "../../src/cli/testing/run-cli.js";
import {
  loadWorld,
  type SimEndpoint,
  type SimServer,
  startSimServer,
} from "../../src/sim/index.js";

// Issue #14 "fail fast" and #10 item 10: before the first batch, one check per endpoint finds a
// wrong URL, a refused key, an exhausted quota or an unknown model, and `ecdysis evolve` stops
// with one clear line — the server's reason and the fix — having run no rollout. Real processes,
// the quickstart project, the sim answering as OpenAI does. No timing is asserted.

const servers: SimServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function sim(endpoint: SimEndpoint = {}) {
  const server = await startSimServer({
    world: await loadWorld("quickstart"),
    latencyScale: 0,
    endpoint,
  });
  servers.push(server);
  return server;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function project(model: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-preflight-"));
  await cp(join(repoRoot, "examples", "quickstart", "harness"), join(dir, "harness"), {
    recursive: true,
  });
  await cp(join(repoRoot, "examples", "quickstart", "tasks"), join(dir, "tasks"), {
    recursive: true,
  });
  await writeFile(
    join(dir, "ecdysis.yml"),
    [
      "model:",
      ...model.map((line) => `  ${line}`),
      "harness:",
      "  dir: harness",
      "  editable: [harness.yaml, system.md, rules.md]",
      "tasks:",
      "  train: tasks/train.jsonl",
      "  heldout: tasks/heldout.jsonl",
      "",
    ].join("\n"),
  );
  return dir;
}

async function evolve(dir: string, env: Record<string, string> = {}) {
  const run = await spawnCli(["evolve", "--config", "ecdysis.yml", "--out", "out"], {
    cwd: dir,
    env,
  });
  const lines = run.stderr.trim().split("\n");
  return { ...run, lines, last: lines.at(-1) ?? "" };
}

/** Nothing was evaluated: no rollout cached, no result written. */
async function expectNoRollout(dir: string): Promise<void> {
  const cache = await readdir(join(dir, ".ecdysis", "cache", "rollouts")).catch(() => []);
  expect(cache).toEqual([]);
  const out = await readdir(join(dir, "out")).catch(() => []);
  expect(out).not.toContain("result.json");
}

describe("the endpoint check before the first batch", () => {
  it("a wrong URL (nothing listening): one line naming the URL, no rollout", async () => {
    const port = await closedPort();
    const dir = await project([
      "provider: openai",
      `baseUrl: http://127.0.0.1:${port}/v1`,
      "model: sim-1",
    ]);
    const run = await evolve(dir);
    expect(run.code).toBe(1);
    expect(run.last).toMatch(
      new RegExp(
        `^error: endpoint check failed for model 'sim-1' at http://127\\.0\\.0\\.1:${port}/v1: cannot connect \\(.*ECONNREFUSED.*\\); check model\\.baseUrl and that the server is running$`,
      ),
    );
    await expectNoRollout(dir);
  });

  it("a wrong URL (a server, but not its API root): one line saying baseUrl is wrong, no rollout", async () => {
    const server = await sim();
    const root = server.url.replace(/\/v1$/, "");
    const dir = await project(["provider: openai", `baseUrl: ${root}`, "model: sim-1"]);
    const run = await evolve(dir);
    expect(run.code).toBe(1);
    expect(run.last).toContain("neither GET /models nor POST /chat/completions exists there");
    expect(run.last).toContain("it usually ends in /v1");
    expect(run.last).toContain("server said: Invalid URL (POST /chat/completions)");
    expect(server.requests()).toBe(0);
    await expectNoRollout(dir);
  });

  it("a refused key: OpenAI's whole 401 message, the key redacted, no rollout", async () => {
    const server = await sim({ apiKey: "sk-the-right-key-000000" });
    const dir = await project([
      "provider: openai",
      `baseUrl: ${server.url}`,
      "model: sim-1",
      "apiKeyEnv: MY_LLM_KEY",
    ]);
    const run = await evolve(dir, { MY_LLM_KEY: "sk-a-wrong-key-123456" });
    expect(run.code).toBe(1);
    expect(run.last).toContain("401 from");
    expect(run.last).toContain("the API key in $MY_LLM_KEY was refused");
    expect(run.last).toContain(
      "server said: Incorrect API key provided: sk-***3456. You can find your API key at https://platform.openai.com/account/api-keys.",
    );
    expect(run.stderr).not.toContain("sk-a-wrong-key-123456");
    expect(server.requests()).toBe(0);
    await expectNoRollout(dir);
  });

  it("an unknown model: the model_not_found message and what the server lists, no rollout", async () => {
    const server = await sim({ models: ["sim-1", "sim-2"] });
    const dir = await project(["provider: openai", `baseUrl: ${server.url}`, "model: gpt-4o-mini"]);
    const run = await evolve(dir);
    expect(run.code).toBe(1);
    expect(run.last).toContain("endpoint check failed for model 'gpt-4o-mini'");
    expect(run.last).toContain(
      "the endpoint does not serve it (it lists sim-1, sim-2): check model.model",
    );
    expect(run.last).toContain(
      "The model `gpt-4o-mini` does not exist or you do not have access to it.",
    );
    // The one-token check reached the chat route; no rollout did.
    expect(server.requests()).toBe(1);
    await expectNoRollout(dir);
  });

  it("an exhausted quota: insufficient_quota before the first batch, no rollout", async () => {
    const server = await sim({ noQuota: true });
    const dir = await project(["provider: openai", `baseUrl: ${server.url}`, "model: sim-1"]);
    const run = await evolve(dir, { OPENAI_API_KEY: "sk-no-credit-left-0000" });
    expect(run.code).toBe(1);
    expect(run.last).toContain("insufficient_quota");
    expect(run.last).toContain("You exceeded your current quota");
    expect(run.last).toContain("add credit or use another key");
    expect(server.requests()).toBe(1);
    await expectNoRollout(dir);
  });

  it("every failure is one line of stderr", async () => {
    const port = await closedPort();
    const dir = await project([
      "provider: openai",
      `baseUrl: http://127.0.0.1:${port}/v1`,
      "model: m",
    ]);
    const run = await evolve(dir);
    expect(run.lines.filter((line) => line.startsWith("error:"))).toHaveLength(1);
    expect(run.stdout).toBe("");
  });
});
