import type { ModelConfig } from "../config/config-schema.js";

/** How the provider currently speaks to one model (the resolved form of `model.capabilities`). */
export interface WireSettings {
  /** Native `tools`, or the text protocol (tools in the system prompt, `CALL` lines). */
  tools: "native" | "text";
  structuredOutput: "json_schema" | "json_object" | "prompt";
  tokenLimit: "max_tokens" | "max_completion_tokens" | "none";
  /** Whether `temperature` is sent. */
  temperature: boolean;
  /** Whether the sample's `seed` is sent. */
  seed: boolean;
}

/** A request parameter a server can refuse, as the wire names it. */
export type WireParameter =
  | "tools"
  | "response_format"
  | "max_tokens"
  | "max_completion_tokens"
  | "temperature"
  | "seed"
  | "reasoning_effort";

/** One step down a capability ladder, for the summary and the report. */
export interface Downgrade {
  /** Base URL (or, for the sim, its world identity) and model it applies to. */
  endpoint: string;
  model: string;
  /** The parameter the server refused (`tools`, `response_format`, `max_tokens`, …). */
  parameter: WireParameter;
  from: string;
  to: string;
  /** What the server said (key redacted). */
  reason: string;
  /** Learned by an earlier run and read back from the cache (`<cacheDir>/endpoints.json`). */
  remembered: boolean;
}

/**
 * OpenAI's reasoning models (o-series, GPT-5 except the chat variants) take
 * `max_completion_tokens` and only their default temperature; a provider prefix
 * (`openai/o3-mini` on OpenRouter) is allowed.
 */
export function isReasoningModel(model: string): boolean {
  const name = model.toLowerCase().split("/").at(-1) ?? "";
  return /^o\d+(-|$)/.test(name) || (/^gpt-5/.test(name) && !/^gpt-5(\.\d+)?-chat/.test(name));
}

/** Which settings a config fixes (never stepped down) and which are `auto`. */
export function autoSettings(config: ModelConfig): Record<keyof WireSettings, boolean> {
  const modes = config.capabilities;
  return {
    tools: modes.tools === "auto",
    structuredOutput: modes.structuredOutput === "auto",
    tokenLimit: modes.tokenLimit === "auto",
    temperature: modes.temperature === "auto",
    seed: true,
  };
}

/** The settings a model starts with: the configured ones, `auto` resolved by its family. */
export function initialSettings(config: ModelConfig): WireSettings {
  const modes = config.capabilities;
  const reasoning = isReasoningModel(config.model);
  return {
    tools: modes.tools === "text" ? "text" : "native",
    structuredOutput: modes.structuredOutput === "auto" ? "json_schema" : modes.structuredOutput,
    tokenLimit:
      modes.tokenLimit !== "auto"
        ? modes.tokenLimit
        : reasoning
          ? "max_completion_tokens"
          : "max_tokens",
    temperature: modes.temperature === "auto" ? !reasoning : modes.temperature === "send",
    seed: true,
  };
}

/** The setting a refused parameter belongs to. */
export function settingOf(parameter: WireParameter): keyof WireSettings | undefined {
  switch (parameter) {
    case "tools":
      return "tools";
    case "response_format":
      return "structuredOutput";
    case "max_tokens":
    case "max_completion_tokens":
      return "tokenLimit";
    case "temperature":
      return "temperature";
    case "seed":
      return "seed";
    default:
      return undefined;
  }
}

/**
 * The next step down after the server refused `parameter` under `current`, or undefined when
 * there is none. `tried` holds the token-limit forms already refused, so the ladder never loops.
 */
export function nextSettings(
  current: WireSettings,
  parameter: WireParameter,
  tried: ReadonlySet<string>,
): WireSettings | undefined {
  switch (parameter) {
    case "tools":
      return current.tools === "native" ? { ...current, tools: "text" } : undefined;
    case "response_format":
      if (current.structuredOutput === "json_schema")
        return { ...current, structuredOutput: "json_object" };
      if (current.structuredOutput === "json_object")
        return { ...current, structuredOutput: "prompt" };
      return undefined;
    case "max_tokens":
    case "max_completion_tokens": {
      if (current.tokenLimit !== parameter) return undefined;
      const other = parameter === "max_tokens" ? "max_completion_tokens" : "max_tokens";
      return { ...current, tokenLimit: tried.has(other) ? "none" : other };
    }
    case "temperature":
      return current.temperature ? { ...current, temperature: false } : undefined;
    case "seed":
      return current.seed ? { ...current, seed: false } : undefined;
    default:
      return undefined;
  }
}

/** A setting's value as words (`native`, `json_schema`, `sent`, `omitted`). */
export function describeSetting(settings: WireSettings, key: keyof WireSettings): string {
  const value = settings[key];
  if (typeof value === "boolean") return value ? "sent" : "omitted";
  return value;
}

/**
 * What besides the model name shapes a model's replies: a reasoning effort, extra body fields and
 * capability settings fixed by the config. It keys caches (a rollout or a call made at another
 * effort is another answer); undefined when the config sets none of them, so keys stay as they were.
 */
export function replyVariant(config: ModelConfig): string | undefined {
  const fixed = Object.fromEntries(
    Object.entries(config.capabilities).filter(([, mode]) => mode !== "auto"),
  );
  const parts = {
    ...(Object.keys(fixed).length > 0 ? { capabilities: fixed } : {}),
    ...(config.reasoningEffort ? { reasoningEffort: config.reasoningEffort } : {}),
    ...(config.extraBody && Object.keys(config.extraBody).length > 0
      ? { extraBody: config.extraBody }
      : {}),
  };
  return Object.keys(parts).length > 0 ? sortedJson(parts) : undefined;
}

function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : inner,
  );
}
