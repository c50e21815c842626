import type { ModelConfig } from "../config/config-schema.js";
import type { Capability, ChatBody, WireReply } from "./capabilities/capability.js";
import { reasoningEffort } from "./capabilities/reasoning-effort.js";
import { seed } from "./capabilities/seed.js";
import { structuredOutput } from "./capabilities/structured-output.js";
import { temperature } from "./capabilities/temperature.js";
import { tokenLimit } from "./capabilities/token-limit.js";
import { tools } from "./capabilities/tools.js";

export type { ChatBody, Refusal, WireReply } from "./capabilities/capability.js";
export { isReasoningModel } from "./capabilities/model-family.js";

/**
 * Every endpoint capability, one record each (`capabilities/<name>.ts`: its config, detection,
 * step-down, memory key and request mapping). Adding one is a file and a line here. Order is the
 * order of request mapping (the tools section precedes the reply-format section).
 */
export const capabilityRecords = {
  tools,
  structuredOutput,
  tokenLimit,
  temperature,
  seed,
  reasoningEffort,
} as const;

type Records = typeof capabilityRecords;
/** A capability's name: its key under `model.capabilities` and in `WireSettings`. */
export type CapabilityName = keyof Records;
type ValueOf<K extends CapabilityName> = Records[K] extends Capability<infer V> ? V : never;

/** How the provider currently speaks to one model (the resolved form of `model.capabilities`). */
export type WireSettings = { [K in CapabilityName]: ValueOf<K> } & {
  /** Other body fields the endpoint refused, left out from then on (an agent's `top_k`, `stop`…). */
  omitted?: readonly string[];
};

/** A request body field a server can refuse, as the wire names it (`tools`, `seed`, `top_k`…). */
export type WireParameter = string;

/** One step down a capability ladder, for the summary and the report. */
export interface Downgrade {
  /** Base URL (or, for the sim, its world identity) and model it applies to. */
  endpoint: string;
  model: string;
  /** The parameter the server refused (`tools`, `response_format`, `max_tokens`, …). */
  parameter: WireParameter;
  from: string;
  to: string;
  /** What the server said (key redacted), or what a reply showed. */
  reason: string;
  /** Learned by an earlier run and read back from the cache (`<cacheDir>/endpoints.json`). */
  remembered: boolean;
}

const names = Object.keys(capabilityRecords) as CapabilityName[];
const loose = (name: CapabilityName) => capabilityRecords[name] as Capability<string | boolean>;

/** Which capabilities a config leaves `auto` (stepped down on a refusal) and which it fixes. */
export function autoSettings(config: ModelConfig): Record<CapabilityName, boolean> {
  return Object.fromEntries(names.map((name) => [name, loose(name).auto(config)])) as Record<
    CapabilityName,
    boolean
  >;
}

/** The settings a model starts with: the configured ones, `auto` resolved by its family. */
export function initialSettings(config: ModelConfig): WireSettings {
  return Object.fromEntries(
    names.map((name) => [name, loose(name).initial(config)]),
  ) as unknown as WireSettings;
}

/** The capability a refused body field belongs to; undefined for other fields. */
export function capabilityOf(parameter: WireParameter): CapabilityName | undefined {
  return names.find((name) => loose(name).parameters.includes(parameter));
}

/**
 * The next settings after the server refused `parameter` under `current`, or undefined when there
 * is no step left. `tried` holds the parameters already refused, so a ladder never loops.
 */
export function nextSettings(
  current: WireSettings,
  parameter: WireParameter,
  tried: ReadonlySet<string>,
): WireSettings | undefined {
  const name = capabilityOf(parameter);
  if (!name) return undefined;
  const next = loose(name).next(current[name], parameter, tried);
  return next === undefined ? undefined : ({ ...current, [name]: next } as WireSettings);
}

/** A capability's value in words (`native`, `json_schema`, `sent`, `omitted`). */
export function describeSetting(settings: WireSettings, name: CapabilityName): string {
  return loose(name).describe(settings[name]);
}

/** What to change in the config when the server refuses a parameter the config fixes. */
export function fixFor(parameter: WireParameter): string {
  const name = capabilityOf(parameter);
  return name ? loose(name).fix(parameter) : `remove '${parameter}' from model.extraBody`;
}

/**
 * Request mapping: a chat-completions body (ours at its richest — native tools, strict
 * json_schema, `max_tokens`, temperature, seed — or an agent's as it sent it) as these settings
 * let it go out to the endpoint. Fields the endpoint refused outright (`omitted`) are left out.
 */
export function mapBody(body: ChatBody, settings: WireSettings): ChatBody {
  let mapped = body;
  for (const name of names) mapped = loose(name).map(mapped, settings[name]);
  for (const field of settings.omitted ?? []) {
    if (!(field in mapped)) continue;
    const { [field]: _omitted, ...rest } = mapped;
    mapped = rest;
  }
  return mapped;
}

/**
 * What a reply showed the endpoint does not do (a server that ignores what it was sent): per
 * capability, the parameter to step down as if refused, and the reason in words.
 */
export function observedRefusals(
  reply: WireReply,
  settings: WireSettings,
  body: ChatBody,
): { parameter: WireParameter; reason: string }[] {
  return names.flatMap((name) => {
    const reason = loose(name).observe?.(reply, settings[name], body);
    return reason ? [{ parameter: loose(name).parameters[0], reason }] : [];
  });
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
