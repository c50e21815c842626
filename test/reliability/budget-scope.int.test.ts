import { existsSync } from "node:fs";
import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/testing/run-cli.js";
import { readEvolveResult } from "../../src/evolve/result-schema.js";
import { quickstartProject } from "./project.js";

// Issue #10 item 9: the budget bounds the spend. `evolve.budget.scope: run` bounds the whole
// run (the seed/final measurement's rollouts kept free while the search runs); the default
// `training` bounds the search and says so. The report (and the PR body and the Action's job
// summary, which share its cost section) says which.

const evolve = ["evolve", "--config", "ecdysis.yml", "--out", "out"];

async function withBudget(budget: string): Promise<string> {
  const dir = await quickstartProject();
  await appendFile(join(dir, "ecdysis.yml"), `evolve:\n  budget:\n${budget}`);
  return dir;
}

describe("the budget over the whole run", () => {
  it("scope run: every uncached rollout of the run, the measurement included, stays within the limit", async () => {
    // 40 train + 40 held-out tasks, seed and final: the measurement may take 160 rollouts.
    const dir = await withBudget("    rollouts: 230\n    scope: run\n");
    const run = await runCli(evolve, { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const result = await readEvolveResult(join(dir, "out", "result.json"));
    expect(result.cost.rollouts).toBeLessThanOrEqual(230);
    expect(result.cost.training.rollouts).toBeLessThanOrEqual(230 - 160);
    expect(result.stoppedBy).toBe("budget:rollouts");
    expect(result.budget).toMatchObject({ scope: "run", rollouts: 230, measurementRollouts: 160 });
    const report = await readFile(join(dir, "out", "report.md"), "utf8");
    expect(report).toContain(
      "Budget (whole run): 230 rollouts bound everything, the seed and final measurement (at most 160 rollouts) included",
    );
  });

  it("scope run with a limit the measurement alone exceeds: refused naming the field, nothing written", async () => {
    const dir = await withBudget("    rollouts: 100\n    scope: run\n");
    const run = await runCli(evolve, { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /ecdysis\.yml: 'evolve\.budget\.rollouts': is 100, but with scope 'run' it must also cover the seed and final measurement, which may take 160 rollouts/,
    );
    expect(existsSync(join(dir, "out", "journal.jsonl"))).toBe(false);
  });

  it("scope training (the default): the limit bounds the search, and the report says the measurement ran outside it", async () => {
    const dir = await withBudget("    rollouts: 60\n");
    const run = await runCli(evolve, { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const result = await readEvolveResult(join(dir, "out", "result.json"));
    expect(result.cost.training.rollouts).toBeLessThanOrEqual(60);
    expect(result.cost.rollouts).toBeGreaterThan(60);
    expect(result.budget).toMatchObject({ scope: "training", measurementRollouts: 160 });
    const report = await readFile(join(dir, "out", "report.md"), "utf8");
    expect(report).toContain(
      "Budget (search only): 60 rollouts bound the search; the seed and final measurement (at most 160 rollouts) ran outside it",
    );
  });
});
