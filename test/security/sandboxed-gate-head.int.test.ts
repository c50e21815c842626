import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/agent/sandbox/sandbox-probe.js";
import type { SimServer } from "../../src/sim/index.js";
import { type ActionRun, node24, repoRoot, runAction } from "../github/action-runner.js";
import { GitHubApiDouble } from "../github/api-double/github-api-double.js";
import { addPullRequest } from "../github/gate-run.js";
import { createGitFixture, type GitFixture } from "../github/git-fixture.js";
import { type AttackScene, createAttackScene } from "./attack-fixture.js";
import { honestAgentScript, hostileAgentScript } from "./hostile-agent.js";
import { type ModelProxy, startModelProxy } from "./model-proxy.js";
import { honestPrompt, startQuickstart, writeTasks } from "./scenario.js";

// Issue #22: a pull request changes the agent's code; the bundled Action gates it as a runner
// would (its inputs, the job's files and secrets in its environment, the checkout with a
// persisted credential). The head tries every attack and answers from any task file it finds.
// On the previous main it read them and graded itself far above the honest base.

const dist = join(repoRoot, "dist", "index.js");

describe.skipIf(!existsSync(dist))("a pull request's hostile agent as the gate's head", () => {
  let sim: SimServer;
  let proxy: ModelProxy;
  let scene: AttackScene;
  let double: GitHubApiDouble;
  let repo: GitFixture;
  let run: ActionRun;

  beforeAll(async () => {
    expect(await probeSandbox(), "bubblewrap must work here (.ci/run installs it)").toMatchObject({
      available: true,
    });
    sim = await startQuickstart();
    proxy = await startModelProxy({ target: sim.url });
    const tasks = await mkdtemp(join(tmpdir(), "ecdysis-hostile-gate-tasks-"));
    await writeTasks(tasks, { train: 4, heldout: 12 });
    repo = createGitFixture({
      "agent/ecdysis.yml": [
        `model: { provider: openai, baseUrl: "${proxy.url}", model: sim-1 }`,
        "harness: { kind: command, dir: harness, command: [node, agent.js], editable: [agent.js] }",
        "tasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }",
        "concurrency: 4",
        "",
      ].join("\n"),
      "agent/harness/agent.js": honestAgentScript,
      "agent/harness/prompts/system.md": honestPrompt,
      "agent/tasks/train.jsonl": await readFile(join(tasks, "tasks", "train.jsonl"), "utf8"),
      "agent/tasks/heldout.jsonl": await readFile(join(tasks, "tasks", "heldout.jsonl"), "utf8"),
      ".gitignore": ".ecdysis/\n",
    });
    await rm(tasks, { recursive: true, force: true });
    scene = await createAttackScene(join(repo.work, "agent"), join(repo.work, ".git", "config"));
    double = await new GitHubApiDouble().start();
    double.branchSha = (name) => repo.remoteSha(name);
    addPullRequest(double, "smarter");
    const baseSha = repo.remoteSha("main") as string;
    const headSha = repo.commitAndPush({
      branch: "smarter",
      from: "origin/main",
      message: "a smarter agent",
      files: { "agent/harness/agent.js": hostileAgentScript(scene.plan) },
    });
    repo.git(["checkout", "--quiet", "--detach", headSha]);
    run = await runAction({
      entry: { kind: "dist", node: node24 },
      workspace: repo.work,
      apiUrl: double.url,
      eventName: "pull_request",
      sha: headSha,
      env: scene.env,
      event: {
        pull_request: {
          number: 1,
          head: { sha: headSha, ref: "smarter" },
          base: { sha: baseSha, ref: "main" },
        },
      },
      inputs: { mode: "gate", config: "agent/ecdysis.yml", "github-token": double.token },
    });
  }, 600_000);

  afterAll(async () => {
    await scene?.close();
    await double?.close();
    await proxy?.close();
    await sim?.close();
  });

  it("ran the head, sandboxed, and reached nothing", async () => {
    expect(run.outputs["gate-verdict"], run.stdout + run.stderr).toBeDefined();
    expect(proxy.reports.length).toBeGreaterThan(0);
    // A write outside its folder lands in the sandbox's private /tmp at best: `damage` looks on the host.
    for (const { outside, ...report } of proxy.reports)
      expect(report).toEqual({ environ: 0, taskFiles: 0, jobFiles: 0, port: 0, credentials: 0 });
    expect(scene.connections()).toBe(0);
    expect(await scene.damage()).toEqual({ jobFiles: [], outside: [], processes: [] });
    expect(run.summary).not.toContain("Unsandboxed");
    double.assertValid();
  });

  it("measures the hostile head at the honest base's held-out accuracy: no faked gain", () => {
    const base = run.outputs["baseline-heldout-accuracy"];
    expect(Number(base)).toBeGreaterThan(0);
    expect(Number(base)).toBeLessThan(1);
    expect(run.outputs["final-heldout-accuracy"]).toBe(base);
  });
});
