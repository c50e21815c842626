import type { BenchRun } from "../types.js";

/**
 * Test double: a bench run with neutral figures (one world, seed 1, nothing accepted), every
 * field overridable. Tests state only the figures their assertion depends on.
 */
export function benchRun(figures: Partial<BenchRun> & Pick<BenchRun, "strategy">): BenchRun {
  return {
    world: "w",
    seed: 1,
    wallMs: 1000,
    totalWallMs: 1000,
    rollouts: 100,
    totalRollouts: 100,
    llmCalls: 100,
    promptTokens: 0,
    completionTokens: 0,
    refinementShare: 0,
    trainAccuracy: 0.5,
    heldoutAccuracy: 0.5,
    seedTrainAccuracy: 0.5,
    seedHeldoutAccuracy: 0.5,
    acceptedEdits: 0,
    accommodations: 0,
    accommodationReasons: [],
    ineffectiveEdits: 0,
    trajectory: [],
    trajectorySeedAccuracy: null,
    trainTasks: 0,
    patternPurity: null,
    patternsFound: 0,
    ...figures,
  };
}
