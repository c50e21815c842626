import { createRng, deriveSeed, shuffled } from "../evolve/rng.js";
import type { BenchOptions } from "./bench-options.js";
import type { BenchStrategy, BenchWorld, RefinerVariant } from "./types.js";

/** One run the bench makes on a world × seed: an arm, the refiner it meets and its budget. */
export interface PlannedRun {
  strategy: BenchStrategy;
  refiner: RefinerVariant;
  budgetEvals: number;
}

/**
 * The runs of one world × seed: every arm at every budget with the world's refiner, then — with
 * the decomposition — at the largest budget Ecdysis without its pipelining, and Ecdysis and
 * iterative meeting a neutral refiner (unless the world's refiner is neutral already).
 */
export function planRuns(
  options: Pick<BenchOptions, "strategies" | "budgets" | "decomposition">,
  world: BenchWorld,
): PlannedRun[] {
  const plans: PlannedRun[] = [];
  for (const budgetEvals of options.budgets) {
    for (const strategy of options.strategies)
      plans.push({ strategy, refiner: "world", budgetEvals });
  }
  if (!options.decomposition) return plans;
  const largest = options.budgets.at(-1) as number;
  const has = (strategy: BenchStrategy, refiner: RefinerVariant) =>
    plans.some(
      (plan) =>
        plan.strategy === strategy && plan.refiner === refiner && plan.budgetEvals === largest,
    );
  if (!has("ecdysis-serial", "world"))
    plans.push({ strategy: "ecdysis-serial", refiner: "world", budgetEvals: largest });
  if (!world.neutralRefiner) {
    for (const strategy of ["ecdysis", "iterative"] as const)
      plans.push({ strategy, refiner: "neutral", budgetEvals: largest });
  }
  return plans;
}

/** A budget in full-split evaluations as training rollouts on a train split of `trainTasks`. */
export function budgetRollouts(budgetEvals: number, trainTasks: number): number {
  return Math.max(1, Math.round(budgetEvals * trainTasks));
}

/**
 * The probe set of a world × seed: `size` held-out tasks drawn with a seeded shuffle (all of
 * them when the split is smaller), in file order. Every arm of the world × seed is measured on
 * these same tasks.
 */
export function probeTaskIds(options: { heldout: string[]; size: number; seed: number }): string[] {
  const { heldout, size, seed } = options;
  if (heldout.length <= size) return [...heldout];
  const chosen = new Set(shuffled(heldout, createRng(deriveSeed(seed, 0x70726f62))).slice(0, size));
  return heldout.filter((id) => chosen.has(id));
}

/** The run folder name: world, seed, budget, refiner variant (when neutral) and arm. */
export function runFolder(world: string, seed: number, plan: PlannedRun): string {
  const safe = world.replace(/[^A-Za-z0-9._-]+/g, "_");
  const refiner = plan.refiner === "neutral" ? "-neutral-refiner" : "";
  return `${safe}-seed${seed}-b${plan.budgetEvals}${refiner}-${plan.strategy}`;
}
