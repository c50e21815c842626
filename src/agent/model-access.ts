import type { RolloutTally } from "../llm/index.js";
import type { ChatProvider } from "../llm/types.js";

/** How one rollout's agent reaches its model. */
export interface ModelRoute {
  /** The base URL the agent is told (`OPENAI_BASE_URL`, `ECDYSIS_BASE_URL`); absent: none. */
  baseUrl?: string;
  /**
   * For a sandboxed agent: the loopback port its base URL names, and the host's unix socket
   * that port is relayed to from inside the sandbox (its only way out) — the gateway's socket.
   */
  relay?: { port: number; socket: string };
  /** A key of the route's own (the gateway's per-rollout token), given in the key variable instead of the parent's. */
  key?: string;
  /** Ends what `open` started for this rollout. */
  close(): Promise<void>;
  /** What the route counted of the rollout's calls (the gateway's tally), read after `close`. */
  tally?(): RolloutTally;
}

/**
 * The agent's way to its model: opened per rollout (`scratch` is the rollout's private host
 * folder), closed when it ends. The model gateway is the one a run uses (`gatewayModelAccess`):
 * its base URL on loopback, its unix socket for a sandbox, a per-rollout token.
 */
export interface ModelAccess {
  open(input: {
    provider: ChatProvider;
    sandboxed: boolean;
    scratch: string;
    /** The rollout's sample (its calls are cached per sample). */
    sampleIndex: number;
  }): Promise<ModelRoute>;
}
