import type { Capability } from "./capability.js";
import { isReasoningModel } from "./model-family.js";

type TokenLimit = "max_tokens" | "max_completion_tokens" | "none";

/**
 * Which field carries the completion limit: `max_tokens` (most servers), `max_completion_tokens`
 * (OpenAI's reasoning models, which refuse `max_tokens`), or none (servers that know neither).
 * A refused form steps to the other, then to none; `tried` keeps the ladder from looping.
 */
export const tokenLimit: Capability<TokenLimit> = {
  name: "tokenLimit",
  parameters: ["max_tokens", "max_completion_tokens"],
  initial: (config) => {
    const mode = config.capabilities.tokenLimit;
    if (mode !== "auto") return mode;
    return isReasoningModel(config.model) ? "max_completion_tokens" : "max_tokens";
  },
  auto: (config) => config.capabilities.tokenLimit === "auto",
  next: (current, parameter, tried) => {
    if (current !== parameter) return undefined;
    const other = parameter === "max_tokens" ? "max_completion_tokens" : "max_tokens";
    return tried.has(other) ? "none" : other;
  },
  describe: (value) => value,
  map: (body, value) => {
    const { max_tokens, max_completion_tokens, ...rest } = body;
    const limit = max_completion_tokens ?? max_tokens;
    if (limit === undefined || value === "none") return rest;
    return { ...rest, [value]: limit };
  },
  fix: (parameter) =>
    `set model.capabilities.tokenLimit to ${parameter === "max_tokens" ? "max_completion_tokens" : "max_tokens"} or none (or auto)`,
};
