import { stringify } from "yaml";
import type { EvolveConfig } from "../config/config-schema.js";
import type { SharedRunSettings } from "./engine.js";

/** The environment variable the bench's runs read their (placeholder) API key from. */
export const benchKeyEnv = "ECDYSIS_BENCH_SIM_KEY";

/**
 * The `ecdysis.yml` of one bench run: the sim, served by the bench, as an OpenAI-compatible
 * endpoint for agent and refiner alike; the generated tasks and seed harness; and the settings
 * every arm shares (budget, concurrency, seed). Only the strategy differs between the runs of
 * one world × seed × budget.
 */
export function projectConfigYaml(options: {
  strategy: EvolveConfig["strategy"];
  settings: SharedRunSettings;
  model: string;
  baseUrl: string;
  train: string;
  heldout: string;
  harnessDir: string;
}): string {
  const { settings } = options;
  const config = {
    model: {
      provider: "openai",
      baseUrl: options.baseUrl,
      apiKeyEnv: benchKeyEnv,
      model: options.model,
      temperature: settings.temperature,
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
  return `# Written by ecdysis bench; one run of one arm.\n${stringify(config)}`;
}
