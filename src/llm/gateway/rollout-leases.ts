import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { TransportError } from "../../errors/transport-error.js";
import type { Usage } from "../types.js";

/** What one rollout's calls through the gateway came to, counted at the gateway. */
export interface RolloutTally {
  /** Calls the endpoint answered for this rollout: what was paid. */
  calls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** Calls answered from the gateway's cache (paid by an earlier run or rollout). */
  replayed: number;
  /** Retries the gateway spent on this rollout's calls. */
  retries: number;
  /** Calls the endpoint refused for what the agent sent (its 4xx passed on to the agent). */
  refused: number;
  /** Calls still open when the rollout ended, cancelled (their cost is not known). */
  abandoned: number;
  /** Model names the agent asked for other than the one served. */
  otherModels: string[];
  /**
   * The first call the endpoint could not answer after the retries, or that met a refused key,
   * quota, model or route: the rollout did not reach the model, whatever the agent made of it.
   */
  failure?: TransportError;
}

/** One rollout's access to the gateway: its token, and the tally when it ends. */
export interface RolloutLease {
  /** The bearer token the agent sends (its `OPENAI_API_KEY`); worthless once the lease closes. */
  readonly token: string;
  /** The model every call of this rollout is served by. */
  readonly model: string;
  /** Revokes the token, cancels the calls still open and returns the rollout's tally. */
  close(): RolloutTally;
}

/** A lease as the gateway's request handler sees it. */
export interface ActiveLease {
  readonly model: string;
  readonly sampleIndex: number;
  /** Aborted when the lease closes: every upstream call of the rollout listens to it. */
  readonly signal: AbortSignal;
  /** The occurrence number of a body within the rollout (freed again by `release`). */
  take(base: string): number;
  release(base: string, occurrence: number): void;
  paid(usage: Usage, costUsd: number, retries: number): void;
  replayed(): void;
  refused(retries: number): void;
  failed(error: TransportError): void;
  askedFor(model: string): void;
  /** Tracks a call from start to end (calls open at `close` count as abandoned). */
  open(): () => void;
}

const emptyTally = (): RolloutTally => ({
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  replayed: 0,
  retries: 0,
  refused: 0,
  abandoned: 0,
  otherModels: [],
});

/** The gateway's leases: one random token per rollout, valid from `open` to `close`. */
export class RolloutLeases {
  private readonly active = new Map<string, ActiveLease>();
  private readonly closers = new Map<string, () => RolloutTally>();

  /** A fresh lease for one rollout of `model` at `sampleIndex`. */
  open(input: { model: string; sampleIndex: number }): RolloutLease {
    const token = `ecdysis-gw-${randomBytes(24).toString("base64url")}`;
    const tally = emptyTally();
    const controller = new AbortController();
    const occurrences = new Map<string, { next: number; free: number[] }>();
    let openCalls = 0;
    const lease: ActiveLease = {
      model: input.model,
      sampleIndex: input.sampleIndex,
      signal: controller.signal,
      take(base) {
        const slot = occurrences.get(base) ?? { next: 0, free: [] };
        occurrences.set(base, slot);
        slot.free.sort((a, b) => a - b);
        return slot.free.shift() ?? slot.next++;
      },
      release: (base, occurrence) => occurrences.get(base)?.free.push(occurrence),
      paid(usage, costUsd, retries) {
        tally.calls += 1;
        tally.promptTokens += usage.promptTokens;
        tally.completionTokens += usage.completionTokens;
        tally.costUsd += costUsd;
        tally.retries += retries;
      },
      replayed: () => {
        tally.replayed += 1;
      },
      refused(retries) {
        tally.refused += 1;
        tally.retries += retries;
      },
      failed: (error) => {
        tally.failure ??= error;
      },
      askedFor: (model) => {
        if (!tally.otherModels.includes(model)) tally.otherModels.push(model);
      },
      open() {
        openCalls += 1;
        return () => {
          openCalls -= 1;
        };
      },
    };
    const close = () => {
      this.active.delete(token);
      this.closers.delete(token);
      tally.abandoned = openCalls;
      controller.abort(new Error("the rollout ended"));
      return { ...tally, otherModels: [...tally.otherModels] };
    };
    this.active.set(token, lease);
    this.closers.set(token, close);
    return { token, model: input.model, close };
  }

  /** The lease a request's `Authorization: Bearer` (or `api-key`) token names, if it is open. */
  authorize(headers: IncomingHttpHeaders): ActiveLease | undefined {
    const bearer = /^Bearer\s+(.+)$/i.exec(String(headers.authorization ?? ""))?.[1]?.trim();
    const token = bearer ?? (typeof headers["api-key"] === "string" ? headers["api-key"] : "");
    return this.active.get(token);
  }

  /** Ends every lease (the gateway is closing). */
  closeAll(): void {
    for (const close of [...this.closers.values()]) close();
  }
}
