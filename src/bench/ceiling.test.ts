import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ceilingFigures,
  heldoutCeiling,
  heldoutSystematicTasks,
  probeWithSpend,
} from "./ceiling.js";
import { ceilingTable } from "./ceiling-markdown.js";
import type { GroundTruth, TaskTruth } from "./ground-truth.js";
import { spendByIteration } from "./journal-spend.js";
import { benchRun } from "./testing/bench-run.js";

function truthOf(tasks: Omit<TaskTruth, "taskId">[]): GroundTruth {
  return {
    tasks: new Map(tasks.map((task, index) => [`t${index}`, { taskId: `t${index}`, ...task }])),
  };
}

const systematic = { kind: "format-drift", systematic: true };
const slip = { kind: "item-slip", systematic: false };
const borderline = { kind: "prompt-sensitivity", systematic: false };

describe("the held-out ceiling", () => {
  it("counts every systematic deficiency fixed, an item slip lost and a borderline item as one half; train tasks left out", () => {
    const truth = truthOf([
      { split: "heldout", deficiencies: [systematic] },
      { split: "heldout", deficiencies: [] },
      { split: "heldout", deficiencies: [slip, systematic] },
      { split: "heldout", deficiencies: [borderline] },
      { split: "train", deficiencies: [slip] },
    ]);
    expect(heldoutCeiling(truth)).toBeCloseTo(2.5 / 4);
    expect(heldoutCeiling(truthOf([{ split: "train", deficiencies: [] }]))).toBeNull();
  });

  it("gives each run its share of the ceiling and the first time it reached 90% and 95% of it, in wall time, rollouts and calls", () => {
    const probe = {
      tasks: 20,
      points: [
        { iteration: 0, elapsedMs: 0, accuracy: 0.4, harnessHash: "s" },
        { iteration: 2, elapsedMs: 5000, accuracy: 0.73, harnessHash: "a" },
        { iteration: 5, elapsedMs: 9000, accuracy: 0.8, harnessHash: "b" },
      ],
    };
    const spent = [
      { iteration: 0, rollouts: 20, llmCalls: 40 },
      { iteration: 1, rollouts: 30, llmCalls: 60 },
      { iteration: 2, rollouts: 45, llmCalls: 90 },
      { iteration: 4, rollouts: 80, llmCalls: 150 },
      { iteration: 5, rollouts: 95, llmCalls: 170 },
    ];
    const figures = ceilingFigures({ ceiling: 0.8, heldoutAccuracy: 0.76, probe, spent });
    expect(figures.ceilingShare).toBeCloseTo(0.95);
    expect(figures.reach90).toEqual({ wallMs: 5000, rollouts: 45, llmCalls: 90 });
    expect(figures.reach95).toEqual({ wallMs: 9000, rollouts: 95, llmCalls: 170 });
    const never = ceilingFigures({ ceiling: 0.8, heldoutAccuracy: 0.5, probe: null, spent });
    expect(never).toMatchObject({ ceilingShare: 0.625, reach90: null, reach95: null });
    expect(
      ceilingFigures({ ceiling: null, heldoutAccuracy: 0.5, probe, spent }).ceilingShare,
    ).toBeNull();
  });

  it("sums a journal's training spend through each iteration, leaving the measurement out", async () => {
    const dir = await mkdtemp(join(tmpdir(), "journal-spend-"));
    const file = join(dir, "journal.jsonl");
    const lines = [
      { type: "header", version: 1 },
      {
        type: "stage",
        stage: "final/measure-seed",
        output: null,
        spend: { rollouts: 99 },
        measurement: true,
      },
      {
        type: "stage",
        stage: "start/evaluate",
        output: null,
        spend: { rollouts: 10, llmCalls: 10 },
      },
      { type: "stage", stage: "iteration-1/reflect", output: null, spend: { llmCalls: 1 } },
      {
        type: "stage",
        stage: "iteration-1/minibatch",
        output: null,
        spend: { rollouts: 3, llmCalls: 3 },
      },
      { type: "stage", stage: "iteration-2/reflect", output: null, spend: { llmCalls: 1 } },
    ];
    await writeFile(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    expect(await spendByIteration(file)).toEqual([
      { iteration: 0, rollouts: 10, llmCalls: 10 },
      { iteration: 1, rollouts: 13, llmCalls: 14 },
      { iteration: 2, rollouts: 13, llmCalls: 15 },
    ]);
    expect(await spendByIteration(join(dir, "none.jsonl"))).toEqual([]);
  });

  it("bench.md shows each world and arm against its ceiling, then all worlds, in three units", () => {
    const reach = { wallMs: 4000, rollouts: 60, llmCalls: 80 };
    const runs = [
      benchRun({
        strategy: "ecdysis",
        world: "a",
        ceiling: 0.8,
        ceilingShare: 1,
        reach90: reach,
        reach95: reach,
      }),
      benchRun({
        strategy: "iterative",
        world: "a",
        ceiling: 0.8,
        ceilingShare: 0.9,
        reach90: reach,
        reach95: null,
      }),
      benchRun({
        strategy: "ecdysis",
        world: "b",
        ceiling: 0.6,
        ceilingShare: 0.5,
        reach90: null,
        reach95: null,
      }),
      benchRun({ strategy: "sampling", world: "b" }),
    ];
    const table = ceilingTable(runs);
    expect(table).toContain(
      "| 10 | a | ecdysis | 80.0% | 100.0% (lowest 100.0%) | 1 of 1: 4.0 s, 60 rollouts, 80 calls | 1 of 1: 4.0 s, 60 rollouts, 80 calls |",
    );
    expect(table).toContain(
      "| 10 | a | iterative | 80.0% | 90.0% (lowest 90.0%) | 1 of 1: 4.0 s, 60 rollouts, 80 calls | 0 of 1 |",
    );
    expect(table).toContain(
      "| 10 | all worlds | ecdysis | 70.0% | 75.0% (lowest 50.0%) | 1 of 2: 4.0 s, 60 rollouts, 80 calls |",
    );
    expect(table).not.toContain("sampling");
  });
});

describe("what time-to-match counts in spend, and what a run that accepted nothing left", () => {
  it("gives each probe point the spend through its iteration, and none when nothing was recorded", () => {
    const probe = {
      tasks: 20,
      points: [
        { iteration: 0, elapsedMs: 0, accuracy: 0.4, harnessHash: "s" },
        { iteration: 3, elapsedMs: 5000, accuracy: 0.7, harnessHash: "a" },
      ],
    };
    // Iteration 3 spent nothing of its own in the journal: the spend through it is iteration 2's.
    const spent = [
      { iteration: 1, rollouts: 30, llmCalls: 60 },
      { iteration: 2, rollouts: 45, llmCalls: 90 },
      { iteration: 4, rollouts: 80, llmCalls: 150 },
    ];
    expect(
      probeWithSpend(probe, spent)?.points.map(({ rollouts, llmCalls }) => [rollouts, llmCalls]),
    ).toEqual([
      [0, 0],
      [45, 90],
    ]);
    expect(probeWithSpend(probe, [])).toBe(probe);
    expect(probeWithSpend(null, spent)).toBeNull();
  });

  it("counts the held-out tasks a systematic fix would turn (an item slip never turns; a borderline one may)", () => {
    const truth = truthOf([
      { split: "heldout", deficiencies: [systematic] },
      { split: "heldout", deficiencies: [slip, systematic] },
      { split: "heldout", deficiencies: [borderline, systematic] },
      { split: "heldout", deficiencies: [borderline] },
      { split: "train", deficiencies: [systematic] },
    ]);
    expect(heldoutSystematicTasks(truth)).toBe(2);
    expect(heldoutSystematicTasks(truthOf([{ split: "train", deficiencies: [] }]))).toBeNull();
  });
});
