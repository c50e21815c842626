import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runCli } from "../../src/cli/testing/run-cli.js";
import type { EvalResult } from "../../src/eval/types.js";
import { loadWorld, type SimServer, startSimServer } from "../../src/sim/index.js";
import { pythonExample } from "./gateway-project.js";

// Issue #23: a test reads the agent's environment — no real key in it. The endpoint takes only
// the real key (`model.apiKeyEnv`), and the parent process holds another in OPENAI_API_KEY. The
// agent (the official openai SDK, configured by nothing but its environment) writes what it was
// given to a file outside the run, then answers its task through the gateway. On the previous
// main both keys were in the agent's environment, readable by any code the Editor wrote.

const realKey = "sk-proj-REALagentKEY0123456789abcdefghijklmn";
const parentKey = "sk-proj-PARENTkey9876543210zyxwvutsrqponm";

const envAgent = (dumps: string) => `
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
const task = JSON.parse(readFileSync(0, "utf8"));
writeFileSync(join(${JSON.stringify(dumps)}, task.id + ".json"), JSON.stringify(process.env));
const completion = await new OpenAI().chat.completions.create({
  model: process.env.ECDYSIS_MODEL,
  messages: [{ role: "user", content: task.input }],
  seed: task.sampleIndex,
});
process.stdout.write(JSON.stringify({ output: completion.choices[0].message.content ?? "" }));
`;

describe("the agent's environment under the model gateway", () => {
  let sim: SimServer;
  let dir: string;
  let run: Awaited<ReturnType<typeof runCli>>;
  let envs: Record<string, string>[];
  const saved = {
    AGENT_MODEL_KEY: process.env.AGENT_MODEL_KEY,
    OPENAI_API_KEY: process.env.OPENAI_API_KEY,
  };

  beforeAll(async () => {
    sim = await startSimServer({
      world: await loadWorld(join(pythonExample, "world.yaml")),
      latencyScale: 0,
      endpoint: { apiKey: realKey },
    });
    dir = await mkdtemp(join(tmpdir(), "ecdysis-agent-env-"));
    await cp(pythonExample, dir, { recursive: true, filter: (path) => !path.includes(".ecdysis") });
    await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"), "dir");
    const dumps = join(dir, "env-dumps");
    await mkdir(dumps);
    await rm(join(dir, "agent", "agent.py"));
    await writeFile(join(dir, "agent", "agent.mjs"), envAgent(dumps));
    const file = join(dir, "ecdysis.yml");
    const config = (await readFile(file, "utf8"))
      .replace(
        /^model:\n[\s\S]*?^harness:/m,
        `model:\n  provider: openai\n  baseUrl: ${sim.url}\n  apiKeyEnv: AGENT_MODEL_KEY\n  model: sim-1\nharness:`,
      )
      .replace(
        "command: [python3, agent.py]",
        `command: [${JSON.stringify(process.execPath)}, agent.mjs]`,
      );
    await writeFile(file, config);
    // The run's parent process holds both keys, as a CI job with secrets in its environment does.
    process.env.AGENT_MODEL_KEY = realKey;
    process.env.OPENAI_API_KEY = parentKey;
    run = await runCli(
      ["eval", "--config", "ecdysis.yml", "--split", "heldout", "--limit", "6", "--out", "out"],
      {
        cwd: dir,
        env: { AGENT_MODEL_KEY: realKey, OPENAI_API_KEY: parentKey },
      },
    );
    envs = await Promise.all(
      (await readdir(dumps)).map(async (name) =>
        JSON.parse(await readFile(join(dumps, name), "utf8")),
      ),
    );
  }, 300_000);

  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("holds no real key, in any variable", () => {
    expect(envs).toHaveLength(6);
    for (const env of envs) {
      const leaks = Object.entries(env).filter(
        ([, value]) => value.includes(realKey) || value.includes(parentKey),
      );
      expect(leaks.map(([name]) => name)).toEqual([]);
    }
  });

  it("holds a token of its own rollout in the key variables, and the gateway's address", () => {
    const tokens = envs.map((env) => env.AGENT_MODEL_KEY);
    for (const env of envs) {
      expect(env.AGENT_MODEL_KEY).toMatch(/^ecdysis-gw-/);
      expect(env.OPENAI_API_KEY).toBe(env.AGENT_MODEL_KEY);
      expect(env.OPENAI_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(env.OPENAI_BASE_URL).not.toBe(sim.url);
      expect(env.ECDYSIS_BASE_URL).toBe(env.OPENAI_BASE_URL);
    }
    expect(new Set(tokens).size).toBe(envs.length);
  });

  it("reaches the model with it: the gateway sends the real key", async () => {
    expect(run.code, run.stderr).toBe(0);
    const result: EvalResult = JSON.parse(await readFile(join(dir, "out", "eval.json"), "utf8"));
    expect(result).toMatchObject({ n: 6, infraErrors: 0 });
    const headers = sim.requestHeaders().filter((seen) => seen.authorization);
    expect(headers.length).toBeGreaterThan(0);
    expect(headers.every((seen) => seen.authorization === `Bearer ${realKey}`)).toBe(true);
  });
});
