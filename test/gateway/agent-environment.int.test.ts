import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing/run-cli.js";
import type { EvalResult } from "../../src/eval/types.js";
import { loadWorld, type SimServer, startSimServer } from "../../src/sim/index.js";
import { pythonExample, scoredRollouts } from "./gateway-project.js";

// Issue #23: a test reads the sandboxed agent's environment and /proc — no real key in them —
// and the agent reaches a model endpoint it cannot reach itself. The endpoint takes only the
// real key (`model.apiKeyEnv`) and listens on 127.0.0.2, which is not the sandbox's loopback
// (its own network namespace), so the agent's one way out is the gateway's socket; the parent
// process holds another key in OPENAI_API_KEY. The agent (sandbox `required`) is given the two
// keys in its source, as code the Editor wrote could guess them: it counts where it finds them
// (its environment, every /proc/<pid>/environ and cmdline it can read), tries the endpoint
// directly, then answers through the gateway. On the previous main the run was refused before
// any rollout (127.0.0.2 is not a loopback endpoint the interim relay carries); before the
// sandbox, both keys were in the agent's environment.

const realKey = "sk-proj-REALagentKEY0123456789abcdefghijklmn";
const parentKey = "sk-proj-PARENTkey9876543210zyxwvutsrqponm";

const envAgent = (endpoint: string) => `
import { readdirSync, readFileSync } from "node:fs";
const secrets = ${JSON.stringify([realKey, parentKey])};
const holds = (text) => secrets.some((secret) => text.includes(secret));
const task = JSON.parse(readFileSync(0, "utf8"));
const env = process.env;
let procs = 0, procLeaks = 0;
for (const pid of readdirSync("/proc").filter((name) => /^\\d+$/.test(name))) {
  for (const file of ["environ", "cmdline"]) {
    try { const text = readFileSync("/proc/" + pid + "/" + file, "latin1"); procs++; if (holds(text)) procLeaks++; } catch {}
  }
}
let direct = "unreachable";
try { await fetch(${JSON.stringify(endpoint)} + "/models", { signal: AbortSignal.timeout(2000) }); direct = "reached"; } catch {}
const response = await fetch(env.OPENAI_BASE_URL + "/chat/completions", {
  method: "POST",
  headers: { authorization: "Bearer " + env.AGENT_MODEL_KEY, "content-type": "application/json" },
  body: JSON.stringify({ model: env.ECDYSIS_MODEL, messages: [{ role: "user", content: task.input }], seed: task.sampleIndex }),
});
const completion = await response.json();
const report = {
  envLeaks: Object.entries(env).filter(([, value]) => holds(value)).map(([name]) => name),
  procs, procLeaks, direct, status: response.status,
  token: /^ecdysis-gw-/.test(env.AGENT_MODEL_KEY ?? ""),
  openaiKey: "OPENAI_API_KEY" in env,
  baseUrl: /^http:\\/\\/127\\.0\\.0\\.1:\\d+\\/v1$/.test(env.OPENAI_BASE_URL ?? ""),
  sameBase: env.ECDYSIS_BASE_URL === env.OPENAI_BASE_URL,
  home: env.HOME,
};
process.stdout.write(JSON.stringify({ output: JSON.stringify(report), answer: completion.choices?.[0]?.message?.content ?? "" }));
`;

interface Report {
  envLeaks: string[];
  procs: number;
  procLeaks: number;
  direct: string;
  status: number;
  token: boolean;
  openaiKey: boolean;
  baseUrl: boolean;
  sameBase: boolean;
  home: string;
}

describe("a sandboxed agent under the model gateway, its endpoint out of its reach", () => {
  let sim: SimServer;
  let dir: string;
  let run: Awaited<ReturnType<typeof runCli>>;
  let reports: Report[];
  let result: EvalResult;

  beforeAll(async () => {
    sim = await startSimServer({
      world: await loadWorld(join(pythonExample, "world.yaml")),
      latencyScale: 0,
      endpoint: { apiKey: realKey },
      host: "127.0.0.2",
    });
    dir = await mkdtemp(join(tmpdir(), "ecdysis-agent-env-"));
    await cp(pythonExample, dir, { recursive: true, filter: (path) => !path.includes(".ecdysis") });
    await rm(join(dir, "agent", "agent.py"));
    await writeFile(join(dir, "agent", "agent.mjs"), envAgent(sim.url));
    const file = join(dir, "ecdysis.yml");
    const config = (await readFile(file, "utf8"))
      .replace(
        /^model:\n[\s\S]*?^harness:/m,
        `model:\n  provider: openai\n  baseUrl: ${sim.url}\n  apiKeyEnv: AGENT_MODEL_KEY\n  model: sim-1\nharness:\n  sandbox: required`,
      )
      .replace(
        "command: [python3, agent.py]",
        `command: [${JSON.stringify(process.execPath)}, agent.mjs]`,
      );
    await writeFile(file, config);
    // The run's parent process holds both keys, as a CI job with secrets in its environment does.
    run = await runCli(
      ["eval", "--config", "ecdysis.yml", "--split", "heldout", "--limit", "6", "--out", "out"],
      { cwd: dir, env: { AGENT_MODEL_KEY: realKey, OPENAI_API_KEY: parentKey } },
    );
    result = JSON.parse(await readFile(join(dir, "out", "eval.json"), "utf8").catch(() => "{}"));
    // None when the run was refused before any rollout (the first test shows why).
    const records = await scoredRollouts(dir).catch(() => []);
    reports = records.map((record) => JSON.parse(record.output) as Report);
  }, 300_000);

  afterAll(async () => {
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("runs sandboxed, and reaches its model through the gateway, which sends the real key", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(result).toMatchObject({ n: 6, infraErrors: 0 });
    expect(reports).toHaveLength(6);
    for (const report of reports) {
      expect(report.home).toBe("/tmp/home");
      expect(report.status).toBe(200);
      expect(report.direct).toBe("unreachable");
    }
    const headers = sim.requestHeaders().filter((seen) => seen.authorization);
    expect(headers.length).toBeGreaterThanOrEqual(6);
    expect(headers.every((seen) => seen.authorization === `Bearer ${realKey}`)).toBe(true);
  });

  it("finds no real key in its environment nor in any /proc entry it can read", () => {
    expect(reports).toHaveLength(6);
    for (const report of reports) {
      expect(report.envLeaks).toEqual([]);
      expect(report.procs).toBeGreaterThan(0);
      expect(report.procLeaks).toBe(0);
    }
  });

  it("holds a token of its own rollout in its key variable, and the gateway's address", () => {
    expect(reports).toHaveLength(6);
    for (const report of reports) {
      expect(report).toMatchObject({ token: true, baseUrl: true, sameBase: true });
      // The key variable the config names, only: the parent's OPENAI_API_KEY is not passed.
      expect(report.openaiKey).toBe(false);
    }
  });
});
