import type { ModelConfig } from "../config/config-schema.js";
import { loadWorld } from "./load-world.js";
import { type SimServer, startSimServer } from "./server.js";

/**
 * Serves the simulated model of a `provider: sim` model config (its world, model and quirks) on
 * loopback. The edges that run the pipeline on the sim — the CLI, the Action, the bench, tests —
 * hand this to `openModels` (option `simServer`): no core stage imports the sim.
 */
export async function serveSimModel(options: {
  config: ModelConfig;
  /** Multiplies the world's latency model (0 = no simulated latency). */
  latencyScale?: number;
}): Promise<SimServer> {
  const { config } = options;
  return startSimServer({
    world: await loadWorld(config.world ?? ""),
    model: config.model,
    quirks: config.quirks,
    latencyScale: options.latencyScale,
  });
}
