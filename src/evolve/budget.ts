import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";
import type { Budget } from "../config/config-schema.js";
import { BudgetExhaustedError } from "../errors/budget-error.js";

/** Uncached work done, the unit budgets are counted in. */
export const spendSchema = z.object({
  rollouts: z.number(),
  llmCalls: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  costUsd: z.number(),
  /** The part of the LLM spend made by the refiner roles (diagnosis, refinement). */
  refinerCalls: z.number(),
  refinerTokens: z.number(),
  refinerCostUsd: z.number(),
  wallMs: z.number(),
});
/** Uncached work done. */
export type Spend = z.infer<typeof spendSchema>;

/** A zero spend. */
export function emptySpend(): Spend {
  return {
    rollouts: 0,
    llmCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    refinerCalls: 0,
    refinerTokens: 0,
    refinerCostUsd: 0,
    wallMs: 0,
  };
}

/** `a + b` field by field. */
export function addSpend(a: Spend, b: Spend): Spend {
  const sum = emptySpend();
  for (const key of Object.keys(sum) as (keyof Spend)[]) sum[key] = a[key] + b[key];
  return sum;
}

/** The limits a budget enforces (`evolve.budget` without its `scope`). */
export type BudgetLimits = Omit<Budget, "scope">;

/** An evaluation's place in the order rollouts are admitted (`BudgetTracker.ticket`). */
export interface AdmissionTicket {
  /**
   * Admits `uncached` rollouts at once, or refuses them all (BudgetExhaustedError) when they do
   * not fit beside what was admitted before and the reserve. Waits for every earlier ticket.
   */
  admit(uncached: number): Promise<void>;
  /** Gives up the turn without admitting (an evaluation that failed before asking). */
  close(): void;
}

/**
 * Tracks uncached spend against the configured limits. Rollouts are admitted before they start,
 * never aborted in flight: an enforced evaluation first counts its cache misses and asks for all
 * of them (`ticket().admit`); admissions are decided in the order the evaluations were started,
 * so which work runs does not depend on timing. Tokens, cost and wall time are checked before
 * each evaluation and each rollout (`check`) against the spend finished so far. `reserve` keeps
 * part of every limit free for the final measurement when the budget covers the whole run.
 */
export class BudgetTracker {
  private spent = emptySpend();
  /** The spends of the `measure` calls the current async context runs inside. */
  private readonly measuring = new AsyncLocalStorage<Spend[]>();
  private exhausted: BudgetExhaustedError | undefined;
  /** Rollouts admitted but not started yet. */
  private pendingRollouts = 0;
  private held: Partial<Spend> = {};
  /** Spend outside the limits (the measurements, when the budget covers training only). */
  private outside = emptySpend();
  /** Settles when the last ticket handed out has decided (the chain of admission turns). */
  private lastTurn: Promise<void> = Promise.resolve();

  constructor(
    private readonly limits: BudgetLimits,
    private readonly now: () => number,
    private readonly startedAt = now(),
  ) {}

  /** Adds uncached work (live, from the meters, or replayed from the journal). */
  add(delta: Partial<Spend>): void {
    const measured = this.measuring.getStore() ?? [];
    for (const [key, value] of Object.entries(delta) as [keyof Spend, number][]) {
      this.spent[key] += value;
      for (const spend of measured) spend[key] += value;
    }
  }

  /** Counts `spend` (already added) outside the limits: work the budget does not cover. */
  exempt(spend: Partial<Spend>): void {
    for (const [key, value] of Object.entries(spend) as [keyof Spend, number][])
      this.outside[key] += value;
  }

  /** Keeps `reserve` of each limit free: training is refused what would eat into it. */
  reserve(reserve: Partial<Spend>): void {
    this.held = { ...reserve };
  }

  /** What is kept free for the final measurement. */
  reserved(): Partial<Spend> {
    return { ...this.held };
  }

  /** The next turn to admit rollouts; take it synchronously when the evaluation starts. */
  ticket(): AdmissionTicket {
    const previous = this.lastTurn;
    let settle = () => {};
    this.lastTurn = new Promise<void>((resolve) => {
      settle = resolve;
    });
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      settle();
    };
    return {
      admit: async (uncached) => {
        await previous;
        try {
          this.admitNow(uncached);
        } finally {
          close();
        }
      },
      close,
    };
  }

  /** A rollout admitted earlier starts (counted now). */
  startRollout(): void {
    if (this.pendingRollouts > 0) this.pendingRollouts -= 1;
    this.add({ rollouts: 1 });
  }

  /** Admitted rollouts that will not start after all (their evaluation failed). */
  releaseRollouts(count: number): void {
    this.pendingRollouts = Math.max(0, this.pendingRollouts - count);
  }

  private admitNow(uncached: number): void {
    this.check();
    const limit = this.limits.rollouts;
    const committed = this.spent.rollouts - this.outside.rollouts + this.pendingRollouts;
    if (limit !== undefined && committed + uncached + (this.held.rollouts ?? 0) > limit) {
      this.exhausted = new BudgetExhaustedError("rollouts", limit);
      throw this.exhausted;
    }
    this.pendingRollouts += uncached;
  }

  /**
   * Runs `work` and returns what it spent itself, wall time included: work running concurrently
   * outside it (another stage) is not counted, work it started is, however deeply nested.
   */
  async measure<T>(work: () => Promise<T>): Promise<{ value: T; spend: Spend }> {
    const spend = emptySpend();
    const started = this.now();
    const value = await this.measuring.run([...(this.measuring.getStore() ?? []), spend], work);
    spend.wallMs = this.now() - started;
    return { value, spend };
  }

  /** Runs `work` outside every `measure`: what it spends counts only in the measures it opens. */
  detached<T>(work: () => T): T {
    return this.measuring.exit(work);
  }

  /** Spend so far, wall time included (this session's time plus replayed time). */
  snapshot(): Spend {
    return { ...this.spent, wallMs: this.spent.wallMs + (this.now() - this.startedAt) };
  }

  /** The exhausted resource, if any (a limit reached, counting the reserve as spent). */
  exceeded(): BudgetExhaustedError | undefined {
    this.evaluateLimits();
    return this.exhausted;
  }

  /** Throws BudgetExhaustedError once any limit is reached. */
  check(): void {
    const error = this.exceeded();
    if (error) throw error;
  }

  private evaluateLimits(): void {
    if (this.exhausted) return;
    const spend = this.snapshot();
    for (const key of Object.keys(spend) as (keyof Spend)[]) spend[key] -= this.outside[key];
    const held = this.held;
    const tokens = spend.promptTokens + spend.completionTokens;
    const heldTokens = (held.promptTokens ?? 0) + (held.completionTokens ?? 0);
    const checks: [BudgetExhaustedError["resource"], number, number | undefined][] = [
      [
        "rollouts",
        spend.rollouts + this.pendingRollouts + (held.rollouts ?? 0),
        this.limits.rollouts,
      ],
      ["tokens", tokens + heldTokens, this.limits.tokens],
      ["costUsd", spend.costUsd + (held.costUsd ?? 0), this.limits.costUsd],
      ["wallMs", spend.wallMs + (held.wallMs ?? 0), this.limits.wallMs],
    ];
    for (const [resource, used, limit] of checks) {
      if (limit !== undefined && used >= limit) {
        this.exhausted = new BudgetExhaustedError(resource, limit);
        return;
      }
    }
  }
}

/** The refinement roles' share of a spend: of its cost when priced, else of its tokens. */
export function refinementShare(spend: Spend): number {
  const tokens = spend.promptTokens + spend.completionTokens;
  if (spend.costUsd > 0) return spend.refinerCostUsd / spend.costUsd;
  return tokens > 0 ? spend.refinerTokens / tokens : 0;
}
