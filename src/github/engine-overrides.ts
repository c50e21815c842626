import { defaultApiKeyEnv, type LoadedConfig } from "../config/config-schema.js";
import type { EvolveOverrides, LlmOverrides } from "./action-engine.js";

/**
 * Apply the Action's endpoint inputs to a loaded config: `base-url` switches the agent model to
 * an OpenAI-compatible endpoint, `model` renames it, `api-key` is handed over through the
 * environment variable the config names (the config never holds the key itself).
 */
export function applyOverrides(
  loaded: LoadedConfig,
  llm: LlmOverrides,
  overrides: EvolveOverrides = {},
): LoadedConfig {
  const model = { ...loaded.config.model };
  if (llm.baseUrl) Object.assign(model, { provider: "openai", baseUrl: llm.baseUrl });
  if (llm.model) model.model = llm.model;
  if (llm.apiKey) {
    const { refiner, probe, judge } = loaded.config;
    for (const name of [
      model.apiKeyEnv ?? defaultApiKeyEnv,
      refiner && (refiner.apiKeyEnv ?? defaultApiKeyEnv),
      probe && (probe.apiKeyEnv ?? defaultApiKeyEnv),
      judge && (judge.apiKeyEnv ?? defaultApiKeyEnv),
    ]) {
      if (name && !process.env[name]) process.env[name] = llm.apiKey;
    }
  }
  const evolve = { ...loaded.config.evolve, budget: { ...loaded.config.evolve.budget } };
  if (overrides.budgetRollouts) evolve.budget.rollouts = overrides.budgetRollouts;
  if (overrides.budgetCostUsd) evolve.budget.costUsd = overrides.budgetCostUsd;
  if (overrides.maxIterations) evolve.maxIterations = overrides.maxIterations;
  if (overrides.strategy) evolve.strategy = overrides.strategy;
  const concurrency = overrides.concurrency ?? loaded.config.concurrency;
  return { ...loaded, config: { ...loaded.config, model, evolve, concurrency } };
}
