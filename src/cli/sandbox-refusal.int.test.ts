import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateWorldFiles, loadWorld } from "../sim/index.js";
import { runCli } from "./testing/run-cli.js";

// Where the machine cannot build the sandbox (here: ECDYSIS_BWRAP names no program), a command
// harness that must be sandboxed is refused in one line before any rollout; the user's own
// harness under `auto` runs with a warning; `off` runs with one.

/** An agent that leaves a file beside its project each time it runs, and answers. */
const agent = (ran: string) => `
require("node:fs").appendFileSync(${JSON.stringify(ran)}, "ran\\n");
process.stdin.resume();
process.stdin.on("end", () => process.stdout.write(JSON.stringify({ output: "Answer: 0" })));`;

describe("without a sandbox on the machine", () => {
  let dir: string;
  const ran = () => join(dir, "ran.txt");
  const env = { ECDYSIS_BWRAP: "/nonexistent/bwrap" };
  const configure = (sandbox: string) =>
    writeFile(
      join(dir, "ecdysis.yml"),
      [
        "model: { provider: sim, model: sim-1, world: quickstart }",
        `harness: { kind: command, dir: agent, command: [node, agent.js], editable: [agent.js], sandbox: ${sandbox} }`,
        "tasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }",
        "evolve: { maxIterations: 1 }",
        "",
      ].join("\n"),
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "ecdysis-no-sandbox-"));
    await generateWorldFiles({ world: await loadWorld("quickstart"), outDir: dir });
    await mkdir(join(dir, "agent"));
    await writeFile(join(dir, "agent", "agent.js"), agent(ran()));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("refuses a required sandbox in one line naming what to install, before any rollout", async () => {
    await configure("required");
    const run = await runCli(["eval", "--config", "ecdysis.yml", "--out", "out", "--limit", "2"], {
      cwd: dir,
      env,
    });
    expect(run.code).toBe(4);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(
      /sandbox unavailable: bubblewrap \(\/nonexistent\/bwrap\) is not installed.*apt-get install bubblewrap/,
    );
    expect(existsSync(ran())).toBe(false);
  });

  it("refuses to evolve under auto: every candidate after the seed is LLM-edited code", async () => {
    await configure("auto");
    const run = await runCli(
      ["evolve", "--config", "ecdysis.yml", "--out", "evolved", "--limit", "2"],
      { cwd: dir, env },
    );
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/evolve runs LLM-edited candidates/);
    expect(existsSync(ran())).toBe(false);
  });

  it("runs the user's own harness under auto, and off, each with a warning", async () => {
    for (const mode of ["auto", "off"]) {
      await configure(mode);
      const run = await runCli(
        ["eval", "--config", "ecdysis.yml", "--out", `out-${mode}`, "--limit", "2"],
        { cwd: dir, env },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/warning: .*unsandboxed/);
    }
    expect(existsSync(ran())).toBe(true);
  });
});
