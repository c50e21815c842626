import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadedConfig, ModelConfig } from "../config/config-schema.js";
import { isWorldName, worldsDir } from "../config/world-names.js";
import { replyVariant } from "../llm/capabilities.js";

/** What keys rollouts of a model besides its name (`rolloutKey`'s `params`). */
export interface RolloutParams {
  temperature: number;
  maxTokens: number;
  /**
   * For the sim, the world file's content hash and quirks (a changed world is another model).
   * Empty for real endpoints: the model name identifies them, as the base URL of a local
   * server (or a test's loopback port) may change between runs of the same model.
   */
  endpoint: string;
  /** Reasoning effort, extra body fields, fixed capabilities (`replyVariant`); absent when unset. */
  variant?: string;
}

/**
 * The parameters that key rollouts of a model. Every stage that evaluates (eval, evolve, gate)
 * uses this one function, so their caches meet; a changed world file or endpoint misses the cache
 * instead of serving another model's rollouts.
 */
export function rolloutParams(model: ModelConfig): RolloutParams {
  const variant = replyVariant(model);
  return {
    temperature: model.temperature,
    maxTokens: model.maxTokens,
    endpoint: endpointIdentity(model),
    ...(variant ? { variant } : {}),
  };
}

function endpointIdentity(model: ModelConfig): string {
  if (model.provider !== "sim") return "";
  const file =
    model.world && isWorldName(model.world)
      ? join(worldsDir(), `${model.world}.yaml`)
      : model.world;
  const world = file ? createHash("sha256").update(readFileSync(file)).digest("hex") : "";
  return `sim:${world.slice(0, 16)}:${model.quirks.join(",")}`;
}

/** The rollout cache folder of a config: `<cacheDir>/rollouts`, shared by eval, evolve and gate. */
export function rolloutCacheDir(loaded: LoadedConfig): string {
  return join(loaded.config.cacheDir, "rollouts");
}
