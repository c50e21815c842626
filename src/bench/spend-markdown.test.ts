import { describe, expect, it } from "vitest";
import { renderBenchMarkdown } from "./bench-markdown.js";
import { computeComparisons } from "./comparisons.js";
import { noEditTable, threeUnitTable } from "./spend-markdown.js";
import { summariseArms } from "./summary.js";
import { benchRun, probe } from "./testing/bench-run.js";
import type { BenchResult, BenchRun } from "./types.js";

function result(runs: BenchRun[], worlds: string[]): BenchResult {
  return {
    version: 2,
    date: "2026-01-01T00:00:00.000Z",
    machine: { cpu: "c", cores: 1, node: "v20", platform: "p", memoryGb: 1 },
    settings: {
      strategies: ["ecdysis", "iterative"],
      seeds: [1, 2],
      budgets: [10],
      latencyScale: null,
      concurrency: 1,
      maxIterations: 1000,
      temperature: 0.7,
      probeSize: 40,
      bootstrap: { resamples: 100, seed: 1 },
      decomposition: false,
    },
    worlds: worlds.map((name) => ({
      name,
      source: name,
      parameters: {},
      refinerAssumptions: {},
      neutralRefiner: false,
    })),
    runs,
    arms: summariseArms(runs),
    comparisons: computeComparisons(runs, { resamples: 100, seed: 1 }),
    benchWallMs: 1,
  };
}

describe("threeUnitTable", () => {
  // Steps are [ms, accuracy, rollouts, LLM calls]. A* = 0.7 (iterative's best, reached at
  // 600 ms, 240 rollouts, 360 calls). Ecdysis reaches it at 200 ms, 120 rollouts, 90 calls:
  // wall 600 / 200 = 3×, rollouts 240 / 120 = 2×, calls 360 / 90 = 4×. Reverse: iterative
  // never reaches Ecdysis's best (0.8): 0 of 2, n/a in every unit.
  const runs = [1, 2].flatMap((seed) => [
    benchRun({
      strategy: "ecdysis",
      world: "w",
      seed,
      probe: probe([
        [0, 0.4, 0, 0],
        [200, 0.8, 120, 90],
      ]),
    }),
    benchRun({
      strategy: "iterative",
      world: "w",
      seed,
      probe: probe([
        [0, 0.4, 40, 50],
        [600, 0.7, 240, 360],
      ]),
    }),
  ]);

  it("shows the time-to-match in wall time, training rollouts and LLM calls, per world and over all", () => {
    const table = threeUnitTable(result(runs, ["w"]), 10).split("\n");
    expect(table[0]).toContain("wall time | training rollouts | LLM calls");
    expect(table[2]).toBe(
      "| all worlds | 2 / 0 / 0 | 3.00× [3.00×, 3.00×] | 2.00× [2.00×, 2.00×] | 4.00× [4.00×, 4.00×] | 0 of 2 | n/a | n/a | n/a |",
    );
    expect(table[3]).toMatch(/^\| w \| 2 \/ 0 \/ 0 \| 3\.00×/);
    expect(renderBenchMarkdown(result(runs, ["w"]))).toContain(table[2]);
  });

  it("says how many pairs a spend figure covers when some runs recorded no spend", () => {
    const partly = [
      ...runs,
      benchRun({
        strategy: "ecdysis",
        world: "w",
        seed: 3,
        probe: probe([
          [0, 0.4],
          [200, 0.8],
        ]),
      }),
      benchRun({
        strategy: "iterative",
        world: "w",
        seed: 3,
        probe: probe([
          [0, 0.4],
          [600, 0.7],
        ]),
      }),
    ];
    const row = threeUnitTable(result(partly, ["w"]), 10).split("\n")[2];
    expect(row).toContain("| 3 / 0 / 0 | 3.00× [3.00×, 3.00×] | 2.00× [2.00×, 2.00×] (2 pairs) |");
  });
});

describe("noEditTable", () => {
  it("counts the runs that accepted nothing and says why each stopped and what it left", () => {
    const runs = [
      benchRun({ strategy: "ecdysis", world: "w", seed: 1, acceptedEdits: 2 }),
      benchRun({
        strategy: "ecdysis",
        world: "w",
        seed: 2,
        acceptedEdits: 0,
        stoppedBy: "budget:rollouts",
        unspentRollouts: 0,
        heldoutSystematicTasks: 9,
      }),
      benchRun({
        strategy: "iterative",
        world: "w",
        seed: 1,
        acceptedEdits: 0,
        stoppedBy: "no-failures",
        unspentRollouts: 300,
        heldoutSystematicTasks: 0,
      }),
      benchRun({ strategy: "sampling", world: "w", seed: 1 }),
    ];
    expect(noEditTable(runs).split("\n").slice(2)).toEqual([
      "| 10 | w | ecdysis | 1 of 2 | 1 | seed 2: stopped by budget:rollouts, 0 of 400 rollouts unspent; 9 of 40 held-out tasks with a systematic deficiency left |",
      "| 10 | w | iterative | 1 of 1 | 0 | seed 1: stopped by no-failures, 300 of 400 rollouts unspent; 0 of 40 held-out tasks with a systematic deficiency left |",
    ]);
  });

  it("says when ground truth was not recorded, and when no run ended empty", () => {
    const old = benchRun({ strategy: "ecdysis", acceptedEdits: 0 });
    expect(noEditTable([old])).toContain("| 1 of 1 | 0 of 0 known | seed 1: stopped by");
    expect(noEditTable([old])).toContain("not recorded (no ground truth in this record)");
    expect(noEditTable([benchRun({ strategy: "ecdysis", acceptedEdits: 1 })])).toBe(
      "No Ecdysis or iterative run ended with no accepted edit.",
    );
  });
});
