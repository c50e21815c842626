import { join } from "node:path";
import type { LoadedConfig, ModelConfig } from "../config/config-schema.js";

/**
 * The sampling parameters that key rollouts of a model (`rolloutKey`'s `params`). Every stage
 * that evaluates (eval, evolve, gate) must use the same ones, or their caches do not meet.
 */
export function rolloutParams(model: ModelConfig): { temperature: number; maxTokens: number } {
  return { temperature: model.temperature, maxTokens: model.maxTokens };
}

/** The rollout cache folder of a config: `<cacheDir>/rollouts`, shared by eval, evolve and gate. */
export function rolloutCacheDir(loaded: LoadedConfig): string {
  return join(loaded.config.cacheDir, "rollouts");
}
