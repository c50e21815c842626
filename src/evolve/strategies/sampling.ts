import type { EcdysisConfig } from "../../config/config-schema.js";
import type { Strategy } from "../strategy.js";

/**
 * Votes per task of the sampling baseline. With a rollout budget B: the largest odd K with
 * K × (|train| + |held-out|) ≤ B (at least 1), i.e. the whole budget spent on samples of the
 * final evaluation (under `scope: run`, (K + samples) × (|train| + |held-out|) ≤ B: the seed's
 * measurement is paid from it too). Without a rollout budget: the largest odd K ≤ 2 × maxIterations + 1, the
 * number of batch-sized evaluations an ecdysis run of that length performs at most (batch, cheap
 * and full validation per iteration, plus the final one).
 */
export function samplingVotes(options: {
  config: EcdysisConfig;
  trainSize: number;
  heldoutSize: number;
}): number {
  const { config, trainSize, heldoutSize } = options;
  const budget = config.evolve.budget.rollouts;
  const tasks = Math.max(1, trainSize + heldoutSize);
  // Under scope 'run' the seed's own measurement is paid from the same budget.
  const seed = config.evolve.budget.scope === "run" ? config.samples : 0;
  const raw =
    budget === undefined ? 2 * config.evolve.maxIterations + 1 : Math.floor(budget / tasks) - seed;
  const bounded = Math.max(1, raw);
  return bounded % 2 === 1 ? bounded : bounded - 1;
}

/** The sampling baseline: no evolution; the seed harness evaluated with K samples per task and a majority vote. */
export function samplingStrategy(): Strategy {
  return {
    name: "sampling",
    streams: {},
    finalSamples: samplingVotes,
    open: (context) => ({
      start: async (seed) => ({ harness: seed, memory: [] }),
      stop: () => "no-evolution",
      propose: () => Promise.reject(new Error("the sampling baseline proposes nothing")),
      validate: () => Promise.reject(new Error("the sampling baseline validates nothing")),
      next: (state) => state,
      finalSamples: samplingVotes({
        config: context.config,
        trainSize: context.train.length,
        heldoutSize: context.heldoutSize,
      }),
    }),
  };
}
