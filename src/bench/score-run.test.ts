import { describe, expect, it } from "vitest";
import { scoreRun } from "./score-run.js";
import { probe } from "./testing/bench-run.js";
import { fakeOutcome } from "./testing/fake-bench-engine.js";

const truth = {
  tasks: new Map([
    [
      "h1",
      {
        taskId: "h1",
        split: "heldout",
        deficiencies: [{ kind: "format-drift", systematic: true }],
      },
    ],
    ["h2", { taskId: "h2", split: "heldout", deficiencies: [] }],
  ]),
};

const base = {
  strategy: "ecdysis" as const,
  refiner: "world" as const,
  world: "w",
  seed: 1,
  budgetEvals: 5,
  budgetRollouts: 200,
  wallMs: 10,
  truth,
};

describe("scoreRun", () => {
  it("records on each probe point the training spend through its iteration, and the systematic tasks left", () => {
    const run = scoreRun({
      ...base,
      outcome: fakeOutcome({
        heldout: 1,
        spentThrough: [
          { iteration: 0, rollouts: 10, llmCalls: 0 },
          { iteration: 1, rollouts: 50, llmCalls: 80 },
        ],
      }),
      probe: probe([
        [0, 0.5],
        [300, 1],
      ]),
    });
    expect(run.probe?.points.map((point) => [point.rollouts, point.llmCalls])).toEqual([
      [10, 0],
      [50, 80],
    ]);
    expect(run.heldoutSystematicTasks).toBe(1);
  });

  it("leaves the probe without spend when the run kept no journal", () => {
    const run = scoreRun({
      ...base,
      outcome: fakeOutcome({ heldout: 1 }),
      probe: probe([[0, 0.5]]),
    });
    expect(run.probe?.points[0]).not.toHaveProperty("rollouts");
  });
});
