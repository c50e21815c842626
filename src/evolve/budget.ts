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

/**
 * Tracks uncached spend against the configured limits. Checked between stages (`check`) and,
 * through `signal`, inside evaluations: when a limit is reached the signal aborts, in-flight work
 * ends at the next rollout boundary and the run stops cleanly with `stoppedBy` set.
 */
export class BudgetTracker {
  private spent = emptySpend();
  /** The spends of the `measure` calls the current async context runs inside. */
  private readonly measuring = new AsyncLocalStorage<Spend[]>();
  private readonly controller = new AbortController();
  private exhausted: BudgetExhaustedError | undefined;

  constructor(
    private readonly limits: Budget,
    private readonly now: () => number,
    private readonly startedAt = now(),
  ) {}

  /** Aborts when a limit is reached; pass it to evaluations. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Adds uncached work (live, from the meters, or replayed from the journal). */
  add(delta: Partial<Spend>): void {
    const measured = this.measuring.getStore() ?? [];
    for (const [key, value] of Object.entries(delta) as [keyof Spend, number][]) {
      this.spent[key] += value;
      for (const spend of measured) spend[key] += value;
    }
    this.evaluateLimits();
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

  /** The exhausted resource, if any. */
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
    const tokens = spend.promptTokens + spend.completionTokens;
    const checks: [BudgetExhaustedError["resource"], number, number | undefined][] = [
      ["rollouts", spend.rollouts, this.limits.rollouts],
      ["tokens", tokens, this.limits.tokens],
      ["costUsd", spend.costUsd, this.limits.costUsd],
      ["wallMs", spend.wallMs, this.limits.wallMs],
    ];
    for (const [resource, used, limit] of checks) {
      if (limit !== undefined && used >= limit) {
        this.exhausted = new BudgetExhaustedError(resource, limit);
        this.controller.abort(this.exhausted);
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
