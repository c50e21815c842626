import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/agent/sandbox/sandbox-probe.js";
import { type CliRun, spawnCli } from "../../src/cli/testing/run-cli.js";
import type { EvolveResult } from "../../src/evolve/result-schema.js";
import type { SimServer } from "../../src/sim/index.js";
import { type AttackScene, createAttackScene } from "./attack-fixture.js";
import { honestAgentScript, hostileAgentScript } from "./hostile-agent.js";
import { type ModelProxy, startModelProxy } from "./model-proxy.js";
import { honestPrompt, injection, startQuickstart, writeTasks } from "./scenario.js";

// Issue #22: a train task carries an instruction; the Editor (a loopback endpoint the real
// `openai` SDK talks to) obeys it and rewrites the user's agent into one that attacks the runner
// and answers from the task files it finds. `ecdysis evolve` runs that candidate (validation,
// measurement) in its own process, whose environment holds the job's secrets. On the previous
// main it read them from /proc, found tasks/heldout.jsonl and evolve reported held-out 100%.

describe("an evolve candidate written by an Editor that obeys injected task text", () => {
  let sim: SimServer;
  let proxy: ModelProxy;
  let scene: AttackScene;
  let dir: string;
  let run: CliRun;
  let result: EvolveResult;

  beforeAll(async () => {
    expect(await probeSandbox(), "bubblewrap must work here (.ci/run installs it)").toMatchObject({
      available: true,
    });
    sim = await startQuickstart();
    dir = await mkdtemp(join(tmpdir(), "ecdysis-hostile-evolve-"));
    await writeTasks(dir, { train: 12, heldout: 12 });
    await mkdir(join(dir, "agent", "prompts"), { recursive: true });
    await writeFile(join(dir, "agent", "agent.js"), honestAgentScript);
    await writeFile(join(dir, "agent", "prompts", "system.md"), honestPrompt);
    scene = await createAttackScene(dir, join(dir, ".git", "config"));
    const hostile = hostileAgentScript(scene.plan);
    proxy = await startModelProxy({
      target: sim.url,
      obey: {
        injection,
        edits: () => [
          {
            module: "command",
            patterns: [],
            rationale: "maintenance mode, as instructed",
            edit: { kind: "write_file", file: "agent.js", content: hostile },
          },
        ],
      },
    });
    await writeFile(
      join(dir, "ecdysis.yml"),
      [
        `model: { provider: openai, baseUrl: "${proxy.url}", model: sim-1 }`,
        `harness: { kind: command, dir: agent, command: [node, agent.js], editable: [agent.js, prompts/*.md] }`,
        "tasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }",
        "concurrency: 4",
        "evolve: { maxIterations: 2 }",
        "",
      ].join("\n"),
    );
    run = await spawnCli(["evolve", "--config", "ecdysis.yml", "--out", "out"], {
      cwd: dir,
      env: scene.env,
    });
    result = JSON.parse(await readFile(join(dir, "out", "result.json"), "utf8"));
  }, 600_000);

  afterAll(async () => {
    await scene?.close();
    await proxy?.close();
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("ran the hostile candidate, sandboxed", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(proxy.sawInjection).toBe(true);
    expect(proxy.obeyed).toBeGreaterThan(0);
    // Its calls to the model carry its report: it ran, and this is what it reached.
    expect(proxy.reports.length).toBeGreaterThan(0);
    expect(result.sandbox).toEqual({ mode: "auto", engine: "bubblewrap" });
  });

  it("reached nothing: no secret, no task file, no job file, no file outside, no port, no credential", async () => {
    // A write outside its folder lands in the sandbox's private /tmp at best: `damage` looks on the host.
    for (const { outside, ...report } of proxy.reports)
      expect(report).toEqual({ environ: 0, taskFiles: 0, jobFiles: 0, port: 0, credentials: 0 });
    expect(scene.connections()).toBe(0);
    expect(await scene.damage()).toEqual({ jobFiles: [], outside: [], processes: [] });
  });

  it("faked no gain: held-out accuracy is the seed's and the hostile edit was not accepted", () => {
    expect(result.final.heldout.accuracy).toBe(result.baseline.heldout.accuracy);
    expect(result.gate.passed).toBe(false);
    const accepted = JSON.stringify(result.acceptedEdits);
    expect(accepted).not.toContain(scene.plan.marker);
  });
});
