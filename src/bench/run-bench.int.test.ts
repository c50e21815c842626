import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBench } from "./run-bench.js";
import { type BenchRun, benchResultSchema } from "./types.js";

const tinyWorld = `
name: tiny
description: Two families, six train and six held-out tasks each.
seed: 5
families:
  - kind: arithmetic
    counts: { train: 6, heldout: 6 }
  - kind: multi-hop
    counts: { train: 6, heldout: 6 }
    hops: { min: 1, max: 4 }
deficiencies:
  systematic:
    format-drift: 0.3
    arithmetic-slip: 0.6
    step-budget: 0.5
  modelSpecific:
    itemSlip: 0.1
    flaky: 0.05
`;

/**
 * Everything of a run except the wall times and the LLM spend. Pipelining starts some calls
 * speculatively when an earlier step is still running (src/evolve's speed work), so whether one
 * was started — and paid for — depends on timing; the results never do.
 */
function withoutTime(run: BenchRun) {
  const {
    wallMs: _wall,
    totalWallMs: _total,
    llmCalls: _calls,
    promptTokens: _prompt,
    completionTokens: _completion,
    refinementShare: _share,
    ...rest
  } = run;
  return {
    ...rest,
    trajectory: run.trajectory.map(({ elapsedMs: _elapsed, ...point }) => point),
    // When the ceiling's bars were reached: in rollouts only (wall time and calls move with timing).
    reach90: run.reach90?.rollouts ?? null,
    reach95: run.reach95?.rollouts ?? null,
    probe: run.probe && {
      ...run.probe,
      points: run.probe.points.map(({ elapsedMs: _elapsed, ...point }) => point),
    },
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await filesUnder(full)));
    else files.push(full);
  }
  return files;
}

describe("runBench on the real sim and evolve loop", () => {
  // Two full bench runs on the real sim: minutes under a loaded machine, so a generous timeout.
  it("is deterministic in everything but wall time, and probes every harness in force", {
    timeout: 300_000,
  }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "bench-int-"));
    const worldFile = path.join(dir, "tiny.yaml");
    await writeFile(worldFile, tinyWorld);
    const once = (name: string) =>
      runBench({
        worlds: worldFile,
        seeds: "1",
        strategies: "ecdysis,iterative",
        latencyScale: 0,
        budgets: "10",
        concurrency: 4,
        bootstrapResamples: 100,
        outDir: path.join(dir, name),
      });
    const first = await once("first");
    const second = await once("second");

    expect(first.runs.map((run) => run.strategy)).toEqual(["ecdysis", "iterative"]);
    expect(second.runs.map(withoutTime)).toEqual(first.runs.map(withoutTime));
    for (const [index, run] of first.runs.entries())
      expect(Math.abs(second.runs[index].llmCalls - run.llmCalls)).toBeLessThanOrEqual(
        Math.ceil(run.llmCalls * 0.02),
      );
    for (const run of first.runs) {
      expect(run.budgetRollouts).toBe(120);
      expect(run.rollouts).toBeGreaterThan(0);
      expect(run.rollouts).toBeLessThanOrEqual(run.budgetRollouts);
      expect(run.unspentRollouts).toBe(run.budgetRollouts - run.rollouts);
      expect(run.stoppedBy).not.toBe("");
    }
    // The tiny world has systematic deficiencies Ecdysis can repair without accommodating.
    const ecdysis = first.runs.find((run) => run.strategy === "ecdysis")!;
    expect(ecdysis.heldoutAccuracy).toBeGreaterThan(ecdysis.seedHeldoutAccuracy);
    expect(ecdysis.accommodations).toBe(0);
    // The probe covers the whole (small) held-out split: its first point is the seed harness's
    // held-out accuracy and its last the final harness's, as the gate measured them.
    for (const run of first.runs) {
      const probe = run.probe!;
      expect(probe.tasks).toBe(run.heldoutTasks);
      expect(probe.points[0]).toMatchObject({
        iteration: 0,
        elapsedMs: 0,
        accuracy: run.seedHeldoutAccuracy,
      });
      expect(probe.points.at(-1)?.accuracy).toBe(run.heldoutAccuracy);
      expect(probe.points.length).toBeGreaterThan(1);
      const times = probe.points.map((point) => point.elapsedMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times.at(-1)).toBeLessThanOrEqual(run.wallMs + 1);
    }
    expect(first.comparisons.find((c) => c.scope === "all worlds")?.pairs).toHaveLength(1);

    const written = benchResultSchema.parse(
      JSON.parse(await readFile(path.join(dir, "first", "bench.json"), "utf8")),
    );
    expect(written.worlds[0]).toMatchObject({
      name: "tiny",
      source: worldFile,
      neutralRefiner: false,
    });
    expect(written.worlds[0].refinerAssumptions).toMatchObject({
      accuracyAtOne: 0.4,
      accuracyAtMany: 0.95,
    });

    // The world file and the ground truth stay in the bench's own project folder: a run's project
    // (what the pipeline reads, a command harness could open) holds neither, and its config names
    // only an endpoint.
    const runs = path.join(dir, "first", "runs");
    for (const runDir of await readdir(runs)) {
      const project = path.join(runs, runDir, "project");
      const names = (await filesUnder(project)).map((file) => path.basename(file));
      expect(names.filter((name) => /world|truth/i.test(name))).toEqual([]);
      const config = await readFile(path.join(project, "ecdysis.yml"), "utf8");
      expect(config).toContain("provider: openai");
      expect(config).not.toMatch(/world|truth/i);
    }
  });
});
