import type { ModelCallEvent } from "../evolve/meter.js";

/** What the refiner roles are doing in the current busy period (since its first call). */
export interface RefinerActivity {
  /** Calls in flight. */
  running: number;
  /** Calls in flight per purpose (`diagnostician`, `failure-notes`, …). */
  byPurpose: Map<string, number>;
  /** Uncached calls finished in this busy period, per purpose. */
  finishedByPurpose: Map<string, number>;
  /** Uncached calls finished (what the budget and result.json count). */
  done: number;
  /** Calls answered from the call cache (free; e.g. notes written ahead and joined). */
  replayed: number;
  tokens: number;
  costUsd: number;
  /** Start of the busy period; undefined when idle. */
  since?: number;
  /** When the last call of the period started or finished. */
  lastActivityAt?: number;
  /** When plain mode last wrote an interim refiner line. */
  lastLineAt: number;
}

function idleActivity(): RefinerActivity {
  return {
    running: 0,
    byPurpose: new Map(),
    finishedByPurpose: new Map(),
    done: 0,
    replayed: 0,
    tokens: 0,
    costUsd: 0,
    lastLineAt: 0,
  };
}

const bump = (map: Map<string, number>, key: string, by: number) =>
  map.set(key, (map.get(key) ?? 0) + by);

/**
 * Running totals of a run's model calls (uncached ones count, as the budget counts them; cached
 * replays are counted apart) and the refiner's current busy period.
 */
export class CallTally {
  private calls = 0;
  private replayed = 0;
  private tokens = 0;
  private agentCostUsd = 0;
  private refinerCostUsd = 0;
  private activity = idleActivity();

  /** Adds an event at time `at`; returns the purpose when it starts a refiner busy period. */
  add(event: ModelCallEvent, at: number): string | undefined {
    const tokens = (event.promptTokens ?? 0) + (event.completionTokens ?? 0);
    if (event.phase === "end" && event.cached) this.replayed += 1;
    else if (event.phase === "end") {
      this.calls += event.calls ?? 1;
      this.tokens += tokens;
      if (event.role === "agent") this.agentCostUsd += event.costUsd ?? 0;
      else this.refinerCostUsd += event.costUsd ?? 0;
    }
    if (event.role !== "refiner") return undefined;
    const activity = this.activity;
    let started: string | undefined;
    if (event.phase === "start") {
      if (activity.since === undefined) {
        activity.since = at;
        activity.lastLineAt = at;
        started = event.purpose;
      }
      activity.running += 1;
      bump(activity.byPurpose, event.purpose, 1);
    } else {
      activity.running = Math.max(0, activity.running - 1);
      bump(activity.byPurpose, event.purpose, -1);
      if (event.phase === "end" && event.cached) activity.replayed += 1;
      else if (event.phase === "end") {
        activity.done += 1;
        activity.tokens += tokens;
        activity.costUsd += event.costUsd ?? 0;
        bump(activity.finishedByPurpose, event.purpose, 1);
      }
    }
    activity.lastActivityAt = at;
    return started;
  }

  /** The refiner's current busy period. */
  refiner(): RefinerActivity {
    return this.activity;
  }

  /** The finished busy period when the refiner has been idle for `idleMs`, else undefined. */
  idleSince(at: number, idleMs: number): RefinerActivity | undefined {
    const activity = this.activity;
    if (activity.since === undefined || activity.running > 0) return undefined;
    return at - (activity.lastActivityAt ?? at) >= idleMs ? activity : undefined;
  }

  /** Starts a new (idle) period after a finished one was reported. */
  resetActivity(): void {
    this.activity = idleActivity();
  }

  /** Records that plain mode wrote an interim refiner line. */
  markLine(at: number): void {
    this.activity.lastLineAt = at;
  }

  /** Totals so far: uncached calls, replays, tokens and cost split agent/refiner. */
  totals() {
    return {
      calls: this.calls,
      replayed: this.replayed,
      tokens: this.tokens,
      costUsd: this.agentCostUsd + this.refinerCostUsd,
      agentCostUsd: this.agentCostUsd,
      refinerCostUsd: this.refinerCostUsd,
    };
  }
}
