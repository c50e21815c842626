import { stat } from "node:fs/promises";
import type { LoadedConfig, ModelConfig } from "../config/config-schema.js";
import { stableStringify } from "../config/load-config.js";
import { InputError } from "../errors/input-error.js";
import { type AccountedProvider, type Clock, createProvider } from "../llm/index.js";
import { bundledWorlds, loadWorld, startSimServer } from "../sim/index.js";

/** The models of a run: the agent's, the refiner roles' and the optional probe. */
export interface OpenModels {
  agent: AccountedProvider;
  refiner: AccountedProvider;
  probe?: AccountedProvider;
  /** Stops the in-process sim servers (a no-op for remote endpoints). */
  close(): Promise<void>;
}

/** Options of `openModels`. */
export interface OpenModelsOptions {
  /** Sim only: multiplies the world's latency model (0 = no simulated latency). */
  latencyScale?: number;
  /** Environment the API keys are read from. Default process.env. */
  env?: Record<string, string | undefined>;
  clock?: Clock;
}

/**
 * Opens the configured models. `provider: sim` starts the simulated model in-process on
 * loopback (one server per distinct world/model/quirks) and talks to it through the real
 * OpenAI-compatible client; `provider: openai` uses `baseUrl` and the key from the environment
 * variable named by `apiKeyEnv`. The refiner defaults to the agent's model config.
 */
export async function openModels(
  loaded: LoadedConfig,
  options: OpenModelsOptions = {},
): Promise<OpenModels> {
  const env = options.env ?? process.env;
  const servers = new Map<string, Promise<{ url: string; close(): Promise<void> }>>();
  const closeAll = async () => {
    const started = await Promise.allSettled(servers.values());
    await Promise.all(
      started.map((entry) => (entry.status === "fulfilled" ? entry.value.close() : undefined)),
    );
  };
  const open = async (config: ModelConfig, field: string): Promise<AccountedProvider> => {
    if (config.provider === "sim") {
      await checkWorldFile(loaded, config, field);
      const identity = stableStringify({
        world: config.world,
        model: config.model,
        quirks: config.quirks,
      });
      let server = servers.get(identity);
      if (!server) {
        server = (async () =>
          startSimServer({
            world: await loadWorld(config.world ?? ""),
            model: config.model,
            quirks: config.quirks,
            latencyScale: options.latencyScale,
          }))();
        servers.set(identity, server);
      }
      const { url } = await server;
      return createProvider({
        config,
        baseUrl: url,
        apiKey: "sim-placeholder-key",
        clock: options.clock,
      });
    }
    const apiKey = env[config.apiKeyEnv];
    if (!apiKey) {
      throw new InputError(
        loaded.path,
        `the environment variable ${config.apiKeyEnv} is not set (it must hold the API key)`,
        {
          field: `${field}.apiKeyEnv`,
        },
      );
    }
    return createProvider({ config, baseUrl: config.baseUrl ?? "", apiKey, clock: options.clock });
  };
  try {
    const { model, refiner, probe } = loaded.config;
    const agent = await open(model, "model");
    const refinerProvider = await open(refiner ?? model, refiner ? "refiner" : "model");
    const probeProvider = probe ? await open(probe, "probe") : undefined;
    return { agent, refiner: refinerProvider, probe: probeProvider, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** A world file named in the config must exist: the error names the config's line and field. */
async function checkWorldFile(
  loaded: LoadedConfig,
  config: ModelConfig,
  field: string,
): Promise<void> {
  const world = config.world ?? "";
  if (bundledWorlds().includes(world)) return;
  const found = await stat(world).catch(() => undefined);
  if (found?.isFile()) return;
  throw new InputError(
    loaded.path,
    `${found ? "is a folder, not a world file" : "world file not found"}: ${world} (bundled worlds: ${bundledWorlds().join(", ")})`,
    { line: loaded.lines?.[`${field}.world`], field: `${field}.world` },
  );
}
