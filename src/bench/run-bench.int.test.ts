import { mkdtemp, readFile, writeFile } from "node:fs/promises";
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

/** Everything of a run except the wall times, which are the only thing allowed to differ. */
function withoutTime(run: BenchRun) {
  const { wallMs: _wall, totalWallMs: _total, ...rest } = run;
  return {
    ...rest,
    trajectory: run.trajectory.map(({ elapsedMs: _elapsed, ...point }) => point),
  };
}

describe("runBench on the real sim and evolve loop", () => {
  it("is deterministic in everything but wall time", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "bench-int-"));
    const worldFile = path.join(dir, "tiny.yaml");
    await writeFile(worldFile, tinyWorld);
    const once = (name: string) =>
      runBench({
        worlds: worldFile,
        seeds: "1",
        strategies: "ecdysis,iterative",
        latencyScale: 0,
        budgetRollouts: 200,
        concurrency: 4,
        outDir: path.join(dir, name),
      });
    const first = await once("first");
    const second = await once("second");

    expect(first.runs.map((run) => run.strategy)).toEqual(["ecdysis", "iterative"]);
    expect(second.runs.map(withoutTime)).toEqual(first.runs.map(withoutTime));
    for (const run of first.runs) {
      expect(run.rollouts).toBeGreaterThan(0);
      expect(run.llmCalls).toBeGreaterThan(0);
    }
    // The tiny world has systematic deficiencies Ecdysis can repair without accommodating.
    const ecdysis = first.runs.find((run) => run.strategy === "ecdysis")!;
    expect(ecdysis.heldoutAccuracy).toBeGreaterThan(ecdysis.seedHeldoutAccuracy);
    expect(ecdysis.accommodations).toBe(0);
    // Every accepted step is on the trajectory, timed within the training time, in order.
    for (const run of first.runs) {
      expect(run.trajectory.length).toBeGreaterThan(0);
      const times = run.trajectory.map((point) => point.elapsedMs);
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times.at(-1)).toBeLessThanOrEqual(run.wallMs + 1);
      expect(run.trajectory.every((point) => point.tasks === run.trainTasks)).toBe(true);
      expect(run.trajectorySeedAccuracy).toBe(run.seedTrainAccuracy);
    }
    expect(first.timeToMatch).toHaveLength(1);

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
  });
});
