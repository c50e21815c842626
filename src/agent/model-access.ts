import { join } from "node:path";
import { InputError } from "../errors/input-error.js";
import type { ChatProvider } from "../llm/types.js";
import { startModelRelay } from "./sandbox/model-relay.js";

/** How one rollout's agent reaches its model. */
export interface ModelRoute {
  /** The base URL the agent is told (`OPENAI_BASE_URL`, `ECDYSIS_BASE_URL`); absent: none. */
  baseUrl?: string;
  /**
   * For a sandboxed agent: the loopback port its base URL names, and the host's unix socket
   * that port is relayed to from inside the sandbox (its only way out).
   */
  relay?: { port: number; socket: string };
  /** A key of the route's own (a gateway's run-scoped token), given in the key variable instead of the parent's. */
  key?: string;
  /** Ends what `open` started for this rollout. */
  close(): Promise<void>;
}

/**
 * The agent's way to its model: opened per rollout (`scratch` is the rollout's private host
 * folder, for a socket), closed when it ends. The model gateway (issue #23) is one: its base
 * URL on loopback, its unix socket, a run-scoped key. `directModelAccess` is the interim one.
 */
export interface ModelAccess {
  open(input: { provider: ChatProvider; sandboxed: boolean; scratch: string }): Promise<ModelRoute>;
}

const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** A base URL the interim relay can carry into the sandbox: a loopback host on a port above 1023. */
function relayable(baseUrl: string): { host: string; port: number } | undefined {
  const url = new URL(baseUrl);
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  if (!loopbackHosts.has(url.hostname) || port < 1024) return undefined;
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port };
}

function notRelayable(baseUrl: string, configFile: string, field: string): InputError {
  return new InputError(
    configFile,
    `a sandboxed agent reaches its model through Ecdysis on loopback; ${new URL(baseUrl).host} is not a loopback endpoint on a port above 1023 (the model gateway serves remote endpoints; until then set harness.sandbox: off for it)`,
    { field },
  );
}

/**
 * Before any rollout: the endpoints a sandboxed agent calls (the agent model's and the probe's,
 * when they are `provider: openai`) must be ones `directModelAccess` can relay. The embedded
 * simulated model always is.
 */
export function checkDirectAccess(input: {
  configFile: string;
  endpoints: { field: string; baseUrl?: string }[];
}): void {
  for (const { field, baseUrl } of input.endpoints)
    if (baseUrl && !relayable(baseUrl)) throw notRelayable(baseUrl, input.configFile, field);
}

/**
 * INTERIM, until the model gateway (issue #23) replaces it: the agent calls the provider's own
 * base URL. Unsandboxed, directly; sandboxed, through a relay from a unix socket in the
 * rollout's scratch folder to the endpoint's host:port (`startModelRelay`, a plain TCP pipe),
 * which works for a loopback endpoint (the simulated model, a local server) only: a remote
 * endpoint needs the gateway, and is refused here with that said.
 */
export const directModelAccess: ModelAccess = {
  async open({ provider, sandboxed, scratch }) {
    const baseUrl = provider.baseUrl;
    const none = async () => {};
    if (!baseUrl || !sandboxed) return { baseUrl, close: none };
    const target = relayable(baseUrl);
    if (!target) throw notRelayable(baseUrl, "ecdysis.yml", "model.baseUrl");
    const relay = await startModelRelay({ socket: join(scratch, "model.sock"), ...target });
    return {
      baseUrl,
      relay: { port: target.port, socket: relay.socket },
      close: () => relay.close(),
    };
  },
};
