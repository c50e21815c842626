import { canonicalJson } from "../config/canonical-json.js";
import type { ModelConfig } from "../config/config-schema.js";

/**
 * Serves the simulated model of a `provider: sim` config on loopback (src/sim's `serveSimModel`).
 * The edges that may run on the sim (the CLI, the Action, the bench, tests) pass it in: no core
 * stage imports the sim.
 */
export type SimModelServer = (options: {
  config: ModelConfig;
  latencyScale?: number;
}) => Promise<{ url: string; close(): Promise<void> }>;

/** The in-process sim servers of a run: one per distinct world, model and quirks. */
export function simServers(serve: SimModelServer | undefined, latencyScale: number | undefined) {
  const servers = new Map<string, Promise<{ url: string; close(): Promise<void> }>>();
  return {
    url(config: ModelConfig): Promise<string> {
      if (!serve)
        throw new Error(
          "provider: sim needs the simulated model, which the ecdysis CLI, the Action and the bench serve; a library caller passes `simServer` (src/sim `serveSimModel`) to openModels",
        );
      const identity = canonicalJson({
        world: config.world,
        model: config.model,
        quirks: config.quirks,
      });
      let server = servers.get(identity);
      if (!server) {
        server = serve({ config, latencyScale });
        servers.set(identity, server);
      }
      return server.then((started) => started.url);
    },
    async close(): Promise<void> {
      const started = await Promise.allSettled(servers.values());
      await Promise.all(
        started.map((entry) => (entry.status === "fulfilled" ? entry.value.close() : undefined)),
      );
    },
  };
}
