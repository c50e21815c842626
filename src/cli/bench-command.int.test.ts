import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, spawnCli } from "./testing/run-cli.js";

describe("ecdysis bench", () => {
  it("parses its flags into a run and writes bench.json and bench.md", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-bench-cli-"));
    const run = await runCli(
      [
        "bench",
        "--world",
        "quickstart",
        "--seeds",
        "1",
        "--strategies",
        "sampling",
        "--budgets",
        "3",
        "--latency-scale",
        "0",
        "--resume",
        "--out",
        "b",
      ],
      { cwd: dir },
    );
    expect(run.stderr).toContain("bench: run 1/1 done (quickstart seed 1 sampling)");
    expect(run.code).toBe(0);
    const bench = JSON.parse(await readFile(join(dir, "b", "bench.json"), "utf8"));
    expect(bench.runs).toHaveLength(1);
    expect(bench.runs[0]).toMatchObject({
      strategy: "sampling",
      world: "quickstart",
      seed: 1,
      budgetEvals: 3,
      budgetRollouts: 120,
    });
    expect(await readFile(join(dir, "b", "bench.md"), "utf8")).toContain("sampling");
  });

  it("with --jobs, makes the runs in processes side by side and assembles them in one bench", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-bench-jobs-"));
    const run = await spawnCli(
      [
        "bench",
        "--world",
        "quickstart",
        "--seeds",
        "1,2",
        "--strategies",
        "sampling",
        "--budgets",
        "1",
        "--latency-scale",
        "0",
        "--jobs",
        "2",
        "--out",
        "b",
      ],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("[seeds 1] bench: run 1/1 done (quickstart seed 1 sampling)");
    expect(run.stderr).toContain("[seeds 2] bench: run 1/1 done (quickstart seed 2 sampling)");
    const bench = JSON.parse(await readFile(join(dir, "b", "bench.json"), "utf8"));
    expect(bench.runs.map((entry: { seed: number }) => entry.seed)).toEqual([1, 2]);
    expect(bench.execution.processes).toBe(2);
    expect(await readFile(join(dir, "b", "bench.md"), "utf8")).toContain(
      "in 2 bench processes side by side",
    );
  }, 300_000); // two bench processes plus their parent, each a tsx start: over a minute on 2 busy cores

  it("names a bad flag value", async () => {
    const run = await runCli(["bench", "--seeds", "1,x", "--out", "b"], { cwd: tmpdir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("'--seeds'");
    const strategy = await runCli(
      ["evolve", "--config", "c.yml", "--out", "o", "--strategy", "random"],
      { cwd: tmpdir() },
    );
    expect(strategy.code).toBe(2);
    expect(strategy.stderr).toContain("'--strategy'");
    const jobs = await runCli(["bench", "--jobs", "0", "--out", "b"], { cwd: tmpdir() });
    expect(jobs.code).toBe(2);
    expect(jobs.stderr).toContain("'--jobs' must be an integer from 1 to 64");
  });
});
