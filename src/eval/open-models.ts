import { stat } from "node:fs/promises";
import { join } from "node:path";
import { canonicalJson } from "../config/canonical-json.js";
import { defaultApiKeyEnv, type LoadedConfig, type ModelConfig } from "../config/config-schema.js";
import { bundledWorldNames } from "../config/world-names.js";
import { InputError } from "../errors/input-error.js";
import {
  type AccountedProvider,
  CapabilityMemory,
  CapabilityState,
  type Clock,
  createProvider,
  createWireForwarder,
  type Downgrade,
  EndpointLimitRegistry,
  endpointKey,
  type ModelGateway,
  type OpenAIProvider,
  systemClock,
  type WireForwarder,
} from "../llm/index.js";
import { openGateway } from "./open-gateway.js";
import { type SimModelServer, simServers } from "./sim-servers.js";

export type { SimModelServer };

import { rolloutParams } from "./rollout-params.js";

/** The models of a run: the agent's, the refiner roles', the optional probe, and the judge. */
export interface OpenModels {
  agent: AccountedProvider;
  refiner: AccountedProvider;
  probe?: AccountedProvider;
  /** The `llm_judge` scorer's model: `judge`, else `refiner`, else `model`. */
  judge: AccountedProvider;
  /** Capability steps the endpoints forced (this run's and remembered ones), one per step. */
  downgrades(): Downgrade[];
  /**
   * A command harness's model gateway (src/llm/gateway): the agent's and the probe's models
   * over the same endpoints, keys, shared limits and capability state as `agent` and `probe`.
   * Undefined for the built-in runtime.
   */
  gateway?: ModelGateway;
  /** Stops the model gateway and the in-process sim servers. */
  close(): Promise<void>;
}

/** Options of `openModels`. */
export interface OpenModelsOptions {
  /** Serves `provider: sim` models; without it a sim config is refused. */
  simServer?: SimModelServer;
  /** Sim only: multiplies the world's latency model (0 = no simulated latency). */
  latencyScale?: number;
  /** Environment the API keys are read from. Default process.env. */
  env?: Record<string, string | undefined>;
  clock?: Clock;
  /** Check every `provider: openai` endpoint before returning (default true). */
  preflight?: boolean;
  /** Where learned capability steps are kept; default `<cacheDir>/endpoints.json`. */
  memoryPath?: string;
  /** Keep the model gateway's replies under `<cacheDir>/gateway` (default true). */
  gatewayCache?: boolean;
  /** Scrubs what the model gateway stores and sends (the run's secrets). */
  redact?: (body: unknown) => unknown;
}

type Role = "model" | "refiner" | "probe" | "judge";

interface Resolved {
  role: Role;
  config: ModelConfig;
  baseUrl: string;
  apiKey?: string;
  keySource?: string;
  /** Identity of the endpoint in the capability memory (base URL; for the sim, its world). */
  identity: string;
}

/**
 * Opens the configured models. `provider: sim` starts the simulated model in-process on
 * loopback (one server per distinct world/model/quirks) and talks to it through the real
 * OpenAI-compatible client; `provider: openai` uses `baseUrl` and the key from `$apiKeyEnv` (when
 * `apiKeyEnv` is left out: `$OPENAI_API_KEY` if set, else no key). Roles on the same endpoint and
 * key share one set of limits; roles on the same model share what was learned about it. Every
 * remote endpoint is checked once (`preflight.ts`) before this returns.
 */
export async function openModels(
  loaded: LoadedConfig,
  options: OpenModelsOptions = {},
): Promise<OpenModels> {
  const env = options.env ?? process.env;
  const clock = options.clock ?? systemClock;
  const sims = simServers(options.simServer, options.latencyScale);
  let gateway: ModelGateway | undefined;
  const closeAll = async () => {
    await gateway?.close();
    await sims.close();
  };
  try {
    const resolved = await resolveRoles(loaded, env, sims.url);
    const memory = await CapabilityMemory.open(
      options.memoryPath ?? join(loaded.config.cacheDir, "endpoints.json"),
    );
    const { providers, upstreams } = build(resolved, memory, clock);
    if (options.preflight ?? true) await preflight(resolved, providers);
    gateway = await openGateway({
      loaded,
      upstreams,
      callCache: options.gatewayCache,
      redact: options.redact,
    });
    const [agent, refinerProvider, ...rest] = providers;
    return {
      agent,
      refiner: refinerProvider,
      probe: loaded.config.probe ? rest[0] : undefined,
      judge: rest[rest.length - 1],
      downgrades: () => uniqueDowngrades(providers),
      gateway,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** Each role's model config, endpoint and key, in the order agent, refiner, probe?, judge. */
async function resolveRoles(
  loaded: LoadedConfig,
  env: Record<string, string | undefined>,
  simUrl: (config: ModelConfig) => Promise<string>,
): Promise<Resolved[]> {
  const { model, refiner, probe, judge } = loaded.config;
  const roles: [Role, ModelConfig, string][] = [
    ["model", model, "model"],
    ["refiner", refiner ?? model, refiner ? "refiner" : "model"],
    ...(probe ? [["probe", probe, "probe"] as [Role, ModelConfig, string]] : []),
    ["judge", judge ?? refiner ?? model, judge ? "judge" : refiner ? "refiner" : "model"],
  ];
  const resolved: Resolved[] = [];
  for (const [role, config, field] of roles)
    resolved.push(await resolve({ loaded, role, field, config, env, simUrl }));
  return resolved;
}

async function resolve(input: {
  loaded: LoadedConfig;
  role: Role;
  field: string;
  config: ModelConfig;
  env: Record<string, string | undefined>;
  simUrl(config: ModelConfig): Promise<string>;
}): Promise<Resolved> {
  const { config, role } = input;
  if (config.provider === "sim") {
    await checkWorldFile(input.loaded, config, input.field);
    const baseUrl = await input.simUrl(config);
    return { role, config, baseUrl, identity: rolloutParams(config).endpoint };
  }
  const baseUrl = config.baseUrl ?? "";
  if (config.apiKeyEnv) {
    const apiKey = input.env[config.apiKeyEnv];
    if (!apiKey) {
      throw new InputError(
        input.loaded.path,
        `the environment variable ${config.apiKeyEnv} is not set (it must hold the API key; leave apiKeyEnv out for a server that needs no key)`,
        {
          line: input.loaded.lines?.[`${input.field}.apiKeyEnv`],
          field: `${input.field}.apiKeyEnv`,
        },
      );
    }
    return { role, config, baseUrl, apiKey, keySource: `$${config.apiKeyEnv}`, identity: baseUrl };
  }
  const fallback = input.env[defaultApiKeyEnv] || undefined;
  return {
    role,
    config,
    baseUrl,
    apiKey: fallback,
    keySource: fallback ? `$${defaultApiKeyEnv}` : undefined,
    identity: baseUrl,
  };
}

/**
 * One provider per role, sharing limits per endpoint and key and capabilities per model; and
 * for the roles that run the agent (`model`, `probe`), a forwarder for the model gateway over
 * the same endpoint, key, limits and capabilities.
 */
function build(
  resolved: Resolved[],
  memory: CapabilityMemory,
  clock: Clock,
): { providers: OpenAIProvider[]; upstreams: WireForwarder[] } {
  const limits = new EndpointLimitRegistry(clock);
  for (const entry of resolved)
    limits.declare(endpointKey(entry.baseUrl, entry.apiKey), entry.config);
  const states = new Map<string, CapabilityState>();
  const upstreams: WireForwarder[] = [];
  const providers = resolved.map((entry) => {
    const stateKey = canonicalJson({
      identity: entry.identity,
      model: entry.config.model,
      capabilities: entry.config.capabilities,
    });
    let capabilities = states.get(stateKey);
    if (!capabilities) {
      capabilities = new CapabilityState({
        config: entry.config,
        endpoint: entry.identity,
        memory,
      });
      states.set(stateKey, capabilities);
    }
    const options = {
      config: entry.config,
      baseUrl: entry.baseUrl,
      apiKey: entry.apiKey,
      keySource: entry.keySource,
      clock,
      limits: limits.limitsFor(endpointKey(entry.baseUrl, entry.apiKey)),
      capabilities,
    };
    if (entry.role === "model" || entry.role === "probe")
      upstreams.push(createWireForwarder(options));
    return createProvider(options);
  });
  return { providers, upstreams };
}

/** Checks each distinct remote endpoint, key and model once, side by side. */
async function preflight(resolved: Resolved[], providers: OpenAIProvider[]): Promise<void> {
  const checked = new Map<string, Promise<unknown>>();
  resolved.forEach((entry, index) => {
    if (entry.config.provider !== "openai") return;
    const key = `${endpointKey(entry.baseUrl, entry.apiKey)} ${entry.config.model}`;
    if (!checked.has(key)) checked.set(key, providers[index].check());
  });
  await Promise.all(checked.values());
}

function uniqueDowngrades(providers: OpenAIProvider[]): Downgrade[] {
  const seen = new Set<string>();
  const all: Downgrade[] = [];
  for (const downgrade of providers.flatMap((provider) => provider.downgrades())) {
    const key = `${downgrade.endpoint} ${downgrade.model} ${downgrade.parameter} ${downgrade.from}`;
    if (seen.has(key)) continue;
    seen.add(key);
    all.push(downgrade);
  }
  return all;
}

/** A world file named in the config must exist: the error names the config's line and field. */
async function checkWorldFile(
  loaded: LoadedConfig,
  config: ModelConfig,
  field: string,
): Promise<void> {
  const world = config.world ?? "";
  if ((bundledWorldNames as readonly string[]).includes(world)) return;
  const found = await stat(world).catch(() => undefined);
  if (found?.isFile()) return;
  throw new InputError(
    loaded.path,
    `${found ? "is a folder, not a world file" : "world file not found"}: ${world} (bundled worlds: ${bundledWorldNames.join(", ")})`,
    { line: loaded.lines?.[`${field}.world`], field: `${field}.world` },
  );
}
