import { access, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { harnessHash } from "../harness/hash.js";
import type { LoadedHarness } from "../harness/types.js";
import { openHarnessWorkspace } from "../harness/workspace.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { candidateArgv, commandAgent } from "./command-agent.js";
import { testTask } from "./testing/in-memory-harness.js";

async function commandHarness(script: string): Promise<LoadedHarness> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-command-"));
  const command = [process.execPath, "-e", script];
  return {
    kind: "command",
    dir,
    files: {},
    command,
    hash: harnessHash({ kind: "command", files: {}, command }),
  };
}

const provider = new ScriptedProvider(() => undefined, "model-x");
const workspace = openHarnessWorkspace({ parent: join(tmpdir(), "ecdysis-command-workspaces") });
afterAll(() => workspace.close());
const runWith = async (script: string, timeoutMs = 20_000) => {
  const harness = await commandHarness(script);
  const trace = await commandAgent({ timeoutMs, projectRoot: "/project", workspace }).run({
    task: testTask("What is 6*7?"),
    harness,
    provider,
    sampleIndex: 2,
  });
  return { trace, harness };
};

describe("commandAgent", () => {
  it("passes the task on stdin (without expected) and reads {output, answer, trace} from stdout", async () => {
    const script = `
      let input = "";
      process.stdin.on("data", (chunk) => (input += chunk));
      process.stdin.on("end", () => {
        const task = JSON.parse(input);
        console.error("working on " + task.id);
        process.stdout.write(JSON.stringify({
          output: "echo:" + JSON.stringify(task) + "|" + process.cwd() + "|" + process.env.ECDYSIS_MODEL + "|" + process.env.ECDYSIS_PROJECT_ROOT,
          trace: { usage: { promptTokens: 11, completionTokens: 4, llmCalls: 1, costUsd: 0 }, events: [{ kind: "tool-error", step: 0 }] },
        }));
      });`;
    const { trace, harness } = await runWith(script);
    const [echo, cwd, model, root] = trace.output.replace(/^echo:/, "").split("|");
    expect(JSON.parse(echo)).toEqual({
      id: "t1",
      input: "What is 6*7?",
      category: "default",
      sampleIndex: 2,
      model: "model-x",
    });
    expect(cwd).toBe(join(workspace.root, harness.hash));
    expect(model).toBe("model-x");
    expect(root).toBe("/project");
    expect(trace.stderr).toBe("working on t1\n");
    expect(trace.usage).toEqual({ promptTokens: 11, completionTokens: 4, llmCalls: 1, costUsd: 0 });
    expect(trace.events).toEqual([{ kind: "tool-error", step: 0 }]);
    expect(trace.answer).toBeNull();
  });

  it("keeps the repository token and the action inputs from the command, not the model key", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      GITHUB_TOKEN: "ghs_repositorytoken000000",
      "INPUT_GITHUB-TOKEN": "ghs_repositorytoken000000",
      ACTIONS_RUNTIME_TOKEN: "runtime",
      OPENAI_API_KEY: "model-key",
    });
    try {
      const { trace } = await runWith(
        `process.stdout.write(JSON.stringify({ output: Object.keys(process.env).filter((k) => /TOKEN|INPUT_|ACTIONS_|OPENAI/.test(k)).sort().join(",") }))`,
      );
      expect(trace.output).toBe("OPENAI_API_KEY");
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });

  it("uses the given answer, or extracts 'Answer:' from the output", async () => {
    expect(
      (await runWith(`process.stdout.write(JSON.stringify({ output: "x", answer: "42" }))`)).trace
        .answer,
    ).toBe("42");
    expect(
      (await runWith(`process.stdout.write(JSON.stringify({ output: "so\\nAnswer: 7" }))`)).trace
        .answer,
    ).toBe("7");
  });

  it("kills the process group on timeout", async () => {
    const script = `
      const { spawn } = require("node:child_process");
      const grandchild = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "inherit" });
      console.error("grandchild " + grandchild.pid);
      setInterval(() => {}, 1000);`;
    // Long enough for two Node start-ups on a loaded machine: the grandchild must exist (and have
    // printed its pid) before the timeout fires, or there is nothing to check.
    const { trace } = await runWith(script, 5_000);
    expect(trace.events.map((event) => event.kind)).toEqual(["timeout"]);
    expect(trace.answer).toBeNull();
    const pid = Number(/grandchild (\d+)/.exec(trace.stderr ?? "")?.[1]);
    expect(pid).toBeGreaterThan(0);
    let alive = true;
    for (let attempt = 0; attempt < 250 && alive; attempt += 1) {
      try {
        process.kill(pid, 0);
        await new Promise((resolve) => setTimeout(resolve, 20));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  });

  it("rethrows an abort: before the start without running the command, later by killing it", async () => {
    const marker = `require("node:fs").writeFileSync("started", "yes"); setInterval(() => {}, 1000);`;
    const early = await commandHarness(marker);
    const aborted = new AbortController();
    aborted.abort(new Error("stopped before"));
    const run = (harness: LoadedHarness, signal: AbortSignal) =>
      commandAgent({ timeoutMs: 20_000, projectRoot: "/project", workspace }).run({
        task: testTask("q"),
        harness,
        provider,
        sampleIndex: 0,
        signal,
      });
    await expect(run(early, aborted.signal)).rejects.toThrow("stopped before");
    await expect(access(join(workspace.root, early.hash, "started"))).rejects.toThrow();
    const late = new AbortController();
    const running = run(await commandHarness(marker), late.signal);
    late.abort(new Error("stopped while running"));
    await expect(running).rejects.toThrow("stopped while running");
  });

  it("shows the end of stderr for a crash: where a traceback names its error", async () => {
    const { trace } = await runWith(
      `for (let i = 0; i < 200; i++) console.error("  File agent.py, line " + i + ", in step"); console.error("KeyError: 'OPENAI_API_KEY'"); process.exit(1)`,
    );
    expect(trace.events[0].kind).toBe("process-error");
    expect(trace.events[0].detail).toMatch(/^exit code 1; stderr: …/);
    expect(trace.events[0].detail).toMatch(/KeyError: 'OPENAI_API_KEY'$/);
    expect(trace.events[0].detail?.length).toBeLessThanOrEqual(2000);
  });

  it("prices the tokens the agent reports with the model's price; its own cost only without one", async () => {
    const script = `process.stdout.write(JSON.stringify({ output: "x", trace: { usage: { promptTokens: 1000000, completionTokens: 500000, llmCalls: 3, costUsd: 99 } } }))`;
    const harness = await commandHarness(script);
    const run = (price?: { promptPerMTok: number; completionPerMTok: number }) =>
      commandAgent({ timeoutMs: 20_000, projectRoot: "/", workspace, price: () => price }).run({
        task: testTask("q"),
        harness,
        provider,
        sampleIndex: 0,
      });
    const priced = await run({ promptPerMTok: 2, completionPerMTok: 8 });
    expect(priced.usage).toEqual({
      promptTokens: 1000000,
      completionTokens: 500000,
      llmCalls: 3,
      costUsd: 6,
    });
    expect((await run()).usage.costUsd).toBe(99);
    // Without usage, the steps' tokens are summed, one call per step.
    const stepsOnly = await commandHarness(
      `process.stdout.write(JSON.stringify({ output: "x", trace: { steps: [{ promptTokens: 10, completionTokens: 2 }, { promptTokens: 20, completionTokens: 3 }] } }))`,
    );
    const summed = await commandAgent({ timeoutMs: 20_000, projectRoot: "/", workspace }).run({
      task: testTask("q"),
      harness: stepsOnly,
      provider,
      sampleIndex: 0,
    });
    expect(summed.usage).toEqual({
      promptTokens: 30,
      completionTokens: 5,
      llmCalls: 2,
      costUsd: 0,
    });
  });

  it("records a non-zero exit with its code and a stderr excerpt", async () => {
    const { trace } = await runWith(`console.error("boom: missing key"); process.exit(3)`);
    expect(trace.events).toHaveLength(1);
    expect(trace.events[0].kind).toBe("process-error");
    expect(trace.events[0].detail).toMatch(/exit code 3; stderr: boom: missing key/);
  });

  it("records garbage or schema-invalid stdout as process-error", async () => {
    const garbage = await runWith(`console.log("hello, not json")`);
    expect(garbage.trace.events[0]).toMatchObject({ kind: "process-error" });
    expect(garbage.trace.events[0].detail).toMatch(/not one JSON object: hello, not json/);
    const invalid = await runWith(`console.log(JSON.stringify({ answer: 1 }))`);
    expect(invalid.trace.events[0].detail).toMatch(
      /^exit code 0 but stdout JSON field 'output' is required \(expected string\)/,
    );
  });

  it("records a command that cannot start", async () => {
    const harness = { ...(await commandHarness("")), command: ["/nonexistent/agent-binary"] };
    const trace = await commandAgent({ timeoutMs: 5000, projectRoot: "/", workspace }).run({
      task: testTask("q"),
      harness,
      provider,
      sampleIndex: 0,
    });
    expect(trace.events[0].kind).toBe("process-error");
    expect(trace.events[0].detail).toMatch(/ENOENT/);
  });

  it("runs each harness from its own files: a candidate of the same folder reads its own prompt", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-command-own-"));
    const script = `process.stdout.write(JSON.stringify({ output: require("node:fs").readFileSync(require("node:path").join(process.env.ECDYSIS_HARNESS_DIR, "system.md"), "utf8") + "|" + require("node:fs").readFileSync("system.md", "utf8") }))`;
    const command = [process.execPath, "-e", script];
    const harnessWith = (prompt: string): LoadedHarness => {
      const files = { "system.md": prompt };
      return {
        kind: "command",
        dir,
        files,
        command,
        hash: harnessHash({ kind: "command", files, command }),
      };
    };
    const agent = commandAgent({ timeoutMs: 20_000, projectRoot: dir, workspace });
    const run = (harness: LoadedHarness) =>
      agent.run({ task: testTask("q"), harness, provider, sampleIndex: 0 });
    const [seed, candidate] = await Promise.all([
      run(harnessWith("seed")),
      run(harnessWith("candidate")),
    ]);
    expect(seed.output).toBe("seed|seed");
    expect(candidate.output).toBe("candidate|candidate");
  });

  it("runs a ../ argv word from beside the configured harness folder, wherever a harness was loaded from", async () => {
    // The gate loads its head from another folder (an evolve run's out/harness, a PR checkout):
    // `../run.js` must still name the file beside the configured harness, as it did for the base.
    const project = await mkdtemp(join(tmpdir(), "ecdysis-command-home-"));
    await mkdir(join(project, "agent"));
    await writeFile(
      join(project, "run.js"),
      'process.stdout.write(JSON.stringify({ output: "ran beside the harness" }))',
    );
    const command = [process.execPath, "../run.js"];
    const files = { "prompt.md": "evolved\n" };
    const head: LoadedHarness = {
      kind: "command",
      dir: join(project, "out", "harness"),
      files,
      command,
      hash: harnessHash({ kind: "command", files, command }),
    };
    const run = (harnessHome?: string) =>
      commandAgent({ timeoutMs: 20_000, projectRoot: project, workspace, harnessHome }).run({
        task: testTask("q"),
        harness: head,
        provider,
        sampleIndex: 0,
      });
    expect((await run(join(project, "agent"))).output).toBe("ran beside the harness");
    expect((await run()).events[0]?.kind).toBe("process-error");
  });
});

describe("candidateArgv", () => {
  it("makes a path out of the harness folder absolute and keeps the harness's own paths relative", () => {
    expect(candidateArgv(["../.venv/bin/python", "agent.py", "./run.sh"], "/repo/agent")).toEqual([
      "/repo/.venv/bin/python",
      "agent.py",
      "./run.sh",
    ]);
    expect(candidateArgv(["python3", "../agent/main.py", "--flag"], "/repo/agent")).toEqual([
      "python3",
      "./main.py",
      "--flag",
    ]);
  });
});
