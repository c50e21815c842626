import type { LoadedConfig } from "../config/config-schema.js";
import { InputError } from "../errors/input-error.js";
import type { BudgetTracker } from "./budget.js";
import type { Strategy } from "./strategy.js";

/** What the budget covers in one run (result.json's `budget`, the reports' cost sentence). */
export interface BudgetCoverage {
  scope: "training" | "run";
  /** At most this many uncached rollouts measure the seed and final harnesses on both splits. */
  measurementRollouts: number;
}

/**
 * The rollouts the seed and final measurement may take at most: both harnesses on every train
 * and held-out task, the seed at the config's samples, the final at the strategy's.
 */
export function measurementRollouts(input: {
  loaded: LoadedConfig;
  strategy: Strategy;
  trainSize: number;
  heldoutSize: number;
}): number {
  const { config } = input.loaded;
  const sizes = { config, trainSize: input.trainSize, heldoutSize: input.heldoutSize };
  const finalSamples = input.strategy.finalSamples?.(sizes) ?? config.samples;
  return (input.trainSize + input.heldoutSize) * (config.samples + finalSamples);
}

/**
 * Sets the budget up for its scope before anything runs: under `scope: run` the measurement's
 * rollouts are reserved, and a rollout limit that cannot cover them alone is an InputError
 * naming the config field (nothing is written).
 */
export function coverMeasurement(input: {
  loaded: LoadedConfig;
  strategy: Strategy;
  trainSize: number;
  heldoutSize: number;
  budget: BudgetTracker;
}): BudgetCoverage {
  const { loaded } = input;
  const { scope, rollouts } = loaded.config.evolve.budget;
  const needed = measurementRollouts(input);
  if (scope !== "run") return { scope, measurementRollouts: needed };
  if (rollouts !== undefined && rollouts < needed)
    throw new InputError(
      loaded.path,
      `is ${rollouts}, but with scope 'run' it must also cover the seed and final measurement, which may take ${needed} rollouts (${input.trainSize} train + ${input.heldoutSize} held-out tasks, both harnesses); raise it to at least ${needed}, or set 'evolve.budget.scope: training' to bound the search only`,
      { field: "evolve.budget.rollouts" },
    );
  input.budget.reserve(needed);
  return { scope, measurementRollouts: needed };
}
