import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnCli } from "../../src/cli/testing/run-cli.js";
import { loadConfig } from "../../src/config/load-config.js";
import { runEval } from "../../src/eval/run-eval.js";
import type { SimServer } from "../../src/sim/index.js";
import { serveSimModel } from "../../src/sim/index.js";
import { startQuickstart } from "./scenario.js";

// Issue #22's defects of the agent's process, each through `runEval` (what `ecdysis eval`
// runs): the environment was a denylist (OPENAI_API_KEY reached the agent when the config named
// another key variable), and a helper the agent left holding stdout turned a finished answer
// into a timeout, and outlived the run.

/** Prints the names of its environment (never a value), HOME and TMPDIR, and answers 42. */
const environmentAgent = `
process.stdin.resume();
process.stdin.on("end", () => {
  const names = Object.keys(process.env).sort().join(",");
  process.stdout.write(JSON.stringify({ output: names + "|" + process.env.HOME + "|" + process.env.TMPDIR, answer: "42" }));
});`;

/** Answers 42 and leaves a `setsid` helper that holds stdout open (argv: `marker`). */
const lingeringAgent = (marker: string) => `
process.stdin.resume();
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify({ output: "done", answer: "42" }));
  require("node:child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", "${marker}"], { detached: true, stdio: ["ignore", "inherit", "ignore"] }).unref();
});`;

const processesWith = (marker: string) =>
  readdirSync("/proc").filter((pid) => {
    try {
      return /^\d+$/.test(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
    } catch {
      return false;
    }
  });

describe("the agent's process", () => {
  let sim: SimServer;
  let dir: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    process.env.MY_MODEL_KEY = "model-key";
    sim = await startQuickstart();
    dir = await mkdtemp(join(tmpdir(), "ecdysis-agent-process-"));
    await mkdir(join(dir, "tasks"));
    const task = (id: string) =>
      JSON.stringify({ id, input: `Task ${id}: 6 * 7?`, expected: "42" });
    await writeFile(join(dir, "tasks", "train.jsonl"), `${task("t1")}\n`);
    await writeFile(join(dir, "tasks", "heldout.jsonl"), `${task("h1")}\n${task("h2")}\n`);
  });
  afterAll(async () => {
    process.env = saved;
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Evaluates a command harness (`agent.js` = `script`) on the held-out split, `config` lines added. */
  const evaluate = async (
    name: string,
    script: string,
    config: string[] = [],
    timeoutMs = 30_000,
  ) => {
    await mkdir(join(dir, name), { recursive: true });
    await writeFile(join(dir, name, "agent.js"), script);
    await writeFile(
      join(dir, `${name}.yml`),
      [
        `model: { provider: openai, baseUrl: "${sim.url}", model: sim-1, apiKeyEnv: MY_MODEL_KEY }`,
        "harness:",
        "  kind: command",
        `  dir: ${name}`,
        "  command: [node, agent.js]",
        `  timeoutMs: ${timeoutMs}`,
        ...config.map((line) => `  ${line}`),
        "tasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }",
        `cacheDir: .cache-${name}`,
        "",
      ].join("\n"),
    );
    const loaded = await loadConfig(join(dir, `${name}.yml`));
    return runEval({ loaded, split: "heldout", simServer: serveSimModel });
  };

  it("gets no variable of the parent's but the allowlist: not OPENAI_API_KEY when the config names another key", async () => {
    Object.assign(process.env, {
      OPENAI_API_KEY: "another-models-key",
      UNLISTED_SETTING: "x",
      GITHUB_TOKEN: "repository-token",
    });
    const { records } = await evaluate("environment", environmentAgent);
    const [names, home, temp] = records[0].output.split("|");
    const given = names.split(",");
    expect(given).toContain("MY_MODEL_KEY");
    for (const withheld of ["OPENAI_API_KEY", "UNLISTED_SETTING", "GITHUB_TOKEN"])
      expect(given).not.toContain(withheld);
    // Private: the sandbox's own /tmp, not the runner's home or temp.
    expect([home, temp]).toEqual(["/tmp/home", "/tmp"]);
  });

  it("gets exactly the allowlist and the names `harness.env` lists", async () => {
    Object.assign(process.env, { MY_SETTING: "x", UNLISTED_SETTING: "y" });
    const { records } = await evaluate("listed", environmentAgent, ["env: [MY_SETTING]"]);
    const names = records[0].output.split("|")[0].split(",");
    const expected = [
      "ECDYSIS_BASE_URL",
      "ECDYSIS_HARNESS_DIR",
      "ECDYSIS_MODEL",
      "ECDYSIS_PROJECT_ROOT",
      "HOME",
      "LANG",
      "MY_MODEL_KEY",
      "MY_SETTING",
      "OPENAI_BASE_URL",
      "PATH",
      // bubblewrap's own, the folder it starts the agent in.
      "PWD",
      "TEMP",
      "TMP",
      "TMPDIR",
      ...(process.env.TZ ? ["TZ"] : []),
    ];
    expect(names, names.join(",")).toEqual(expected);
  });

  for (const mode of ["auto", "off"] as const) {
    it(`a helper holding stdout open does not turn the answer into a timeout (sandbox ${mode})`, async () => {
      const marker = `ecdysis-lingering-${mode}-${Date.now().toString(36)}`;
      try {
        const { results, records } = await evaluate(`lingering-${mode}`, lingeringAgent(marker), [
          `sandbox: ${mode}`,
        ]);
        expect(records.flatMap((record) => record.trace.events.map((event) => event.kind))).toEqual(
          [],
        );
        expect(results["eval.json"].accuracy).toBe(1);
        // In the sandbox the helper dies with the agent (its PID namespace); unsandboxed it escapes.
        if (mode === "auto") expect(processesWith(marker)).toEqual([]);
      } finally {
        for (const pid of processesWith(marker)) process.kill(Number(pid), "SIGKILL");
      }
    });
  }

  it("a rollout that times out takes its whole tree with it, setsid helpers included (sandboxed)", async () => {
    const marker = `ecdysis-timed-out-${Date.now().toString(36)}`;
    const hanging = `
require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "${marker}"], { detached: true, stdio: "ignore" }).unref();
setInterval(() => {}, 1000);`;
    try {
      const { records } = await evaluate("timed-out", hanging, [], 3000);
      expect(records.map((record) => record.trace.events[0]?.kind)).toEqual(["timeout", "timeout"]);
      // SIGKILL is asynchronous: wait (bounded) for the namespace to be torn down.
      for (let tries = 0; tries < 100 && processesWith(marker).length > 0; tries++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(processesWith(marker)).toEqual([]);
    } finally {
      for (const pid of processesWith(marker)) process.kill(Number(pid), "SIGKILL");
    }
  });

  for (const signal of ["SIGINT", "SIGKILL"] as const) {
    it(`an interrupted run (${signal}) leaves no process of the agent behind (sandboxed)`, async () => {
      const marker = `ecdysis-interrupted-${signal}-${Date.now().toString(36)}`;
      const hanging = `
require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "${marker}"], { detached: true, stdio: "ignore" }).unref();
setInterval(() => {}, 1000);`;
      await mkdir(join(dir, `interrupted-${signal}`), { recursive: true });
      await writeFile(join(dir, `interrupted-${signal}`, "agent.js"), hanging);
      const config = `interrupted-${signal}.yml`;
      await writeFile(
        join(dir, config),
        `model: { provider: openai, baseUrl: "${sim.url}", model: sim-1 }\nharness: { kind: command, dir: interrupted-${signal}, command: [node, agent.js] }\ntasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }\ncacheDir: .cache-interrupted-${signal}\n`,
      );
      try {
        const run = await spawnCli(
          ["eval", "--config", config, "--out", `out-${signal}`, "--split", "heldout"],
          {
            cwd: dir,
            onStart: (child) => {
              const poll = setInterval(() => {
                if (processesWith(marker).length < 2) return;
                clearInterval(poll);
                child.kill(signal);
              }, 50);
              child.on("close", () => clearInterval(poll));
            },
          },
        );
        expect(run.signal ?? run.code).toBeTruthy();
        for (let tries = 0; tries < 100 && processesWith(marker).length > 0; tries++)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(processesWith(marker)).toEqual([]);
      } finally {
        for (const pid of processesWith(marker)) process.kill(Number(pid), "SIGKILL");
      }
    });
  }
});
