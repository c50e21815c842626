import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./testing/run-cli.js";

// A user's agent that crashes on every task must not read as a model that answers wrong.

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** An agent that runs and exits 0 but prints an empty output and reports no model turn. */
const printsNothing = `process.stdin.resume(); process.stdin.on("end", () => process.stdout.write(JSON.stringify({ output: "" })));`;

async function project(agentScript: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-agent-error-"));
  dirs.push(dir);
  await cp(join(repoRoot, "examples", "quickstart", "tasks"), join(dir, "tasks"), {
    recursive: true,
  });
  await mkdir(join(dir, "agent"));
  await writeFile(join(dir, "agent", "agent.js"), agentScript);
  const config = [
    "model: { provider: sim, model: sim-1, world: quickstart }",
    "harness:",
    "  kind: command",
    "  dir: agent",
    `  command: [${JSON.stringify(process.execPath)}, agent.js]`,
    "  editable: ['*.md']",
    "tasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }",
    "",
  ].join("\n");
  await writeFile(join(dir, "ecdysis.yml"), config);
  return dir;
}

describe("ecdysis eval of a command harness whose agent fails", () => {
  it("warns with how many rollouts ended in an agent error and the end of the first one's stderr", async () => {
    const dir = await project(
      `console.error("Traceback (most recent call last):\\n  File agent.py, line 3\\nKeyError: 'OPENAI_API_KEY'"); process.exit(1);`,
    );
    const run = await runCli(["eval", "--config", "ecdysis.yml", "--out", "out", "--limit", "3"], {
      cwd: dir,
    });
    // Nothing was measured: the run fails and says why (it exited 0 before).
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/error: nothing was measured: the agent crashed in every one of 3/);
    expect(run.stderr).toMatch(
      /warning: 3 of 3 rollouts ended in an agent error \(the command exited non-zero.*\)\. First, task [\w-]+: process-error: exit code 1; stderr: .*KeyError: 'OPENAI_API_KEY'/,
    );
  });

  it("names the stdout field that is wrong", async () => {
    const dir = await project(
      `process.stdout.write(JSON.stringify({ answer: "4", trace: { steps: [] } }));`,
    );
    const run = await runCli(["eval", "--config", "ecdysis.yml", "--out", "out", "--limit", "2"], {
      cwd: dir,
    });
    expect(run.stderr).toMatch(
      /2 of 2 rollouts ended in an agent error .* process-error: exit code 0 but stdout JSON field 'output' is required \(expected string\)/,
    );
  });

  it("fails when the agent printed an empty output and no steps every time (it exited 0 at 0%)", async () => {
    const dir = await project(printsNothing);
    const run = await runCli(["eval", "--config", "ecdysis.yml", "--out", "out", "--limit", "2"], {
      cwd: dir,
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /error: nothing was measured: the agent printed an empty output in every one of 2 rollouts/,
    );
  });

  it("says nothing when the agent ran (a wrong answer is not an agent error)", async () => {
    const dir = await project(
      `process.stdin.resume(); process.stdin.on("end", () => process.stdout.write(JSON.stringify({ output: "Answer: 0" })));`,
    );
    const run = await runCli(["eval", "--config", "ecdysis.yml", "--out", "out", "--limit", "2"], {
      cwd: dir,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/agent error/);
  });
});

describe("ecdysis evolve of a command harness whose agent fails", () => {
  it("warns how many of the seed harness's train rollouts ended in an agent error", async () => {
    const dir = await project(
      `console.error("Traceback (most recent call last):\\nKeyError: 'OPENAI_API_KEY'"); process.exit(1);`,
    );
    const run = await runCli(
      ["evolve", "--config", "ecdysis.yml", "--out", "out", "--limit", "3"],
      { cwd: dir },
    );
    // It stops as agent-unusable before any refiner call (it exited 0 before).
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/ecdysis evolve stopped: the agent crashed in every one of 3/);
    expect(run.stderr).toMatch(
      /warning: 3 of 3 train rollouts of the seed harness ended in an agent error \(the command exited non-zero.*\)\. First, task [\w-]+: process-error: exit code 1; stderr: .*KeyError: 'OPENAI_API_KEY'/,
    );
  });
});

describe("ecdysis evolve of a command harness that prints nothing", () => {
  it("stops as agent-unusable before any refiner call (it paid the refiner and exited 0)", async () => {
    const dir = await project(printsNothing);
    const run = await runCli(
      ["evolve", "--config", "ecdysis.yml", "--out", "out", "--limit", "3"],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/ecdysis evolve stopped: the agent printed an empty output/);
    const result = JSON.parse(await readFile(join(dir, "out", "result.json"), "utf8"));
    expect(result.cost.refinement.llmCalls).toBe(0);
  });
});

describe("ecdysis gate of a command harness whose agent fails", () => {
  const crash = `console.error("KeyError: 'OPENAI_API_KEY'"); process.exit(1);`;
  const answers = `process.stdin.resume(); process.stdin.on("end", () => process.stdout.write(JSON.stringify({ output: "Answer: 0" })));`;
  async function gateProject(base: string, head: string): Promise<string> {
    const dir = await project(base);
    const heldout = (await readFile(join(dir, "tasks", "heldout.jsonl"), "utf8")).split("\n");
    await writeFile(join(dir, "tasks", "heldout.jsonl"), `${heldout.slice(0, 6).join("\n")}\n`);
    await mkdir(join(dir, "head"));
    await writeFile(join(dir, "head", "agent.js"), head);
    return dir;
  }
  const gate = (dir: string) =>
    runCli(["gate", "--config", "ecdysis.yml", "--base", "agent", "--head", "head", "--out", "g"], {
      cwd: dir,
    });

  it("fails, naming the crash, when both sides crashed in every rollout (it passed them as 'not worse')", async () => {
    const run = await gate(await gateProject(crash, crash));
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /the gate measured nothing, on either side: the agent crashed in every one of 6/,
    );
    expect(run.stdout).not.toMatch(/gate passed/);
  });

  it("fails when both sides printed an empty output in every rollout (0% against 0% passed)", async () => {
    const run = await gate(await gateProject(printsNothing, printsNothing));
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /the gate measured nothing, on either side: the agent printed an empty output/,
    );
  });

  it("fails a head that crashed in every rollout and says so in the reason", async () => {
    const run = await gate(await gateProject(answers, crash));
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/the head's agent crashed in every one of 6 rollouts/);
  });
});
