import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { repoRoot, runCli } from "./testing/run-cli.js";

interface Step {
  uses?: string;
  if?: string;
  with?: Record<string, string | boolean>;
}
interface Job {
  needs?: string;
  "timeout-minutes": number;
  strategy?: { matrix: { shard: number[] } };
  steps: Step[];
}
type Workflow = { jobs: Record<string, Job> };

/** The matrix expression, as the workflow writes it. */
const matrixShard = ["$", "{{ matrix.shard }}"].join("");
const ecdysisStep = (job: Job) => job.steps.find((step) => step.with?.mode === "evolve");

describe("ecdysis init --runners N", () => {
  it("writes the evolve as search → a matrix of N measure shards → finish, and the gate", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-runners-"));
    const run = await runCli(["init", "project", "--runners", "4"], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const text = await readFile(
      join(dir, "project", ".github", "workflows", "ecdysis.yml"),
      "utf8",
    );
    const workflow = parse(text) as Workflow;
    expect(Object.keys(workflow.jobs)).toEqual(["search", "measure", "finish", "gate"]);
    const { search, measure, finish } = workflow.jobs;
    expect(measure.needs).toBe("search");
    expect(finish.needs).toBe("measure");
    expect(measure.strategy?.matrix.shard).toEqual([1, 2, 3, 4]);
    expect(ecdysisStep(search)?.with).toMatchObject({ phase: "search", config: "ecdysis.yml" });
    expect(ecdysisStep(measure)?.with).toMatchObject({
      phase: "measure",
      shard: `${matrixShard}/4`,
    });
    expect(ecdysisStep(finish)?.with).toMatchObject({ phase: "finish" });
    // The run folder and every job's rollout cache reach the finish, merged as a union; a job
    // cut short still hands on what it finished.
    const downloads = finish.steps.filter((step) => step.uses?.startsWith("actions/download"));
    expect(downloads.map((step) => step.with)).toEqual([
      { name: "ecdysis-run", path: ".ecdysis/evolve-run" },
      { pattern: "ecdysis-cache-*", "merge-multiple": true, path: ".ecdysis/cache" },
    ]);
    const shardUpload = measure.steps.find((step) => step.uses?.startsWith("actions/upload"));
    expect(shardUpload).toMatchObject({
      if: "always()",
      with: { name: `ecdysis-cache-shard-${matrixShard}`, path: ".ecdysis/cache" },
    });
    for (const job of [search, measure]) expect(job["timeout-minutes"]).toBeLessThan(360);
  });

  it("docs/workflows/evolve-matrix.yml holds the jobs init writes for 4 runners", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-runners-"));
    expect((await runCli(["init", ".", "--runners", "4"], { cwd: dir })).code).toBe(0);
    const written = parse(
      await readFile(join(dir, ".github", "workflows", "ecdysis.yml"), "utf8"),
    ) as Workflow;
    const docs = parse(
      await readFile(join(repoRoot, "docs", "workflows", "evolve-matrix.yml"), "utf8"),
    ) as Workflow;
    const { gate: _gate, ...evolveJobs } = written.jobs;
    expect(docs.jobs).toEqual(evolveJobs);
  });

  it("refuses a runner count that is not a whole number from 1", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-runners-"));
    const run = await runCli(["init", ".", "--runners", "0"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--runners");
  });
});
