import { stringify } from "yaml";
import type { SharedRunSettings } from "./engine.js";
import type { BenchStrategy } from "./types.js";

/**
 * The `ecdysis.yml` of one bench run: the sim as agent and refiner, the generated tasks and seed
 * harness, and the settings every strategy shares (budget, concurrency, seed). Only the strategy
 * differs between the runs of one world × seed.
 */
export function projectConfigYaml(options: {
  strategy: BenchStrategy;
  settings: SharedRunSettings;
  model: string;
  worldFile: string;
  train: string;
  heldout: string;
  harnessDir: string;
}): string {
  const { settings } = options;
  const config = {
    model: {
      provider: "sim",
      model: options.model,
      world: options.worldFile,
      maxConcurrency: settings.concurrency,
    },
    harness: { kind: "builtin", dir: options.harnessDir },
    tasks: { train: options.train, heldout: options.heldout },
    concurrency: settings.concurrency,
    seed: settings.seed,
    cacheDir: ".ecdysis/cache",
    evolve: {
      strategy: options.strategy,
      maxIterations: settings.maxIterations,
      budget: { rollouts: settings.budgetRollouts },
    },
  };
  return `# Written by ecdysis bench; one run of one strategy.\n${stringify(config)}`;
}
