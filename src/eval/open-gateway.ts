import path from "node:path";
import type { LoadedConfig } from "../config/config-schema.js";
import { type ModelGateway, startModelGateway, type WireForwarder } from "../llm/index.js";

/**
 * The model gateway of a run whose harness is a command (eval, evolve, gate): started on
 * loopback with the agent's and the probe's models (`upstreams`, which hold the keys), its
 * replies kept under `<cacheDir>/gateway` unless `callCache` is false. Undefined for the
 * built-in runtime, whose calls go through the providers already.
 */
export async function openGateway(input: {
  loaded: LoadedConfig;
  upstreams: WireForwarder[];
  /** Keep and replay the agent's calls (default true), like the providers' call cache. */
  callCache?: boolean;
  /** Scrubs what the gateway stores and sends (the run's secrets). */
  redact?: (body: unknown) => unknown;
}): Promise<ModelGateway | undefined> {
  const { loaded } = input;
  if (loaded.config.harness.kind !== "command" || input.upstreams.length === 0) return undefined;
  return startModelGateway({
    upstreams: input.upstreams,
    cacheDir:
      input.callCache === false
        ? undefined
        : path.resolve(loaded.root, loaded.config.cacheDir, "gateway"),
    redact: input.redact,
  });
}
