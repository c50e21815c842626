import type { BenchRun, ProbeTrajectory } from "../types.js";

/**
 * Test double: a bench run with neutral figures (world `w`, seed 1, budget 10 evaluations,
 * nothing accepted), every field overridable. Tests state only the figures their assertion
 * depends on.
 */
export function benchRun(figures: Partial<BenchRun> & Pick<BenchRun, "strategy">): BenchRun {
  return {
    world: "w",
    refiner: "world",
    seed: 1,
    budgetEvals: 10,
    budgetRollouts: 400,
    stoppedBy: "budget:rollouts",
    ceiling: null,
    ceilingShare: null,
    reach90: null,
    reach95: null,
    heldoutSystematicTasks: null,
    unspentRollouts: 0,
    wallMs: 1000,
    totalWallMs: 1000,
    rollouts: 100,
    totalRollouts: 100,
    llmCalls: 100,
    promptTokens: 0,
    completionTokens: 0,
    refinementShare: 0,
    trainAccuracy: 0.5,
    trainTasks: 40,
    heldoutAccuracy: 0.5,
    heldoutTasks: 40,
    seedTrainAccuracy: 0.5,
    seedHeldoutAccuracy: 0.5,
    acceptedEdits: 0,
    accommodations: 0,
    accommodationReasons: [],
    ineffectiveEdits: 0,
    trajectory: [],
    probe: figures.strategy === "sampling" ? null : probe([[0, 0.5]]),
    patternPurity: null,
    patternsFound: 0,
    ...figures,
  };
}

/**
 * A probe trajectory from `[ms, accuracy]` steps (the first is the seed harness, at 0 ms), or
 * `[ms, accuracy, rollouts, llmCalls]` steps: the training spend through each step's iteration.
 */
export function probe(
  steps: ([number, number] | [number, number, number, number])[],
  tasks = 40,
): ProbeTrajectory {
  return {
    tasks,
    points: steps.map(([elapsedMs, accuracy, rollouts, llmCalls], iteration) => ({
      iteration,
      elapsedMs,
      accuracy,
      harnessHash: `h${iteration}`,
      ...(rollouts === undefined ? {} : { rollouts, llmCalls }),
    })),
  };
}
