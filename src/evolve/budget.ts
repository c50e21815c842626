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
  /** Command-harness rollouts whose agent spend was counted at the model gateway (exact). */
  gatewayRollouts: z.number().default(0),
  /** Command-harness rollouts whose agent spend is the agent's own report (no gateway saw it). */
  selfReportedRollouts: z.number().default(0),
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
    gatewayRollouts: 0,
    selfReportedRollouts: 0,
  };
}

/** `a + b` field by field (the finish phase sums what the measure shards spent). */
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
  /** The seed/final measurement's spend (`countMeasurement`). */
  private readonly measurement = emptySpend();
  /** Rollouts kept free for the measurement (`scope: run`). */
  private reservedRollouts = 0;

  constructor(
    private readonly limits: Partial<Budget>,
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

  /**
   * Records `spend` as the seed/final measurement's (also `add`ed, live or replayed). Under
   * `scope: training` it is outside the limits, so it never stops or shortens training; under
   * `scope: run` it counts like the rest (its rollouts were reserved). Call it before the spend is
   * added when it is known in advance (a replayed stage), so no limit is reached on the way.
   */
  countMeasurement(spend: Partial<Spend>): void {
    for (const [key, value] of Object.entries(spend) as [keyof Spend, number][])
      this.measurement[key] += value;
  }

  /**
   * Keeps `rollouts` free for the seed/final measurement (`scope: run`): training is refused
   * what would eat into them, and its tokens and cost are checked with the measurement's
   * projected on top (the agent's mean per uncached rollout so far, times `rollouts`).
   */
  reserve(rollouts: number): void {
    this.reservedRollouts = rollouts;
  }

  /** Rollouts kept free for the measurement. */
  reserved(): number {
    return this.reservedRollouts;
  }

  /** Spend so far without the measurement's: what the strategy's search cost. */
  training(): Spend {
    const spend = this.snapshot();
    for (const key of Object.keys(spend) as (keyof Spend)[]) spend[key] -= this.measurement[key];
    return spend;
  }

  /** Spend so far that counts against the limits. */
  private bounded(): Spend {
    return this.limits.scope === "run" ? this.snapshot() : this.training();
  }

  /**
   * Training rollouts still allowed before the rollout limit (the measurement's reserved rollouts
   * held back); undefined without a rollout limit.
   */
  rolloutsLeft(): number | undefined {
    if (this.limits.rollouts === undefined) return undefined;
    const used = this.bounded().rollouts + this.reservedRollouts;
    return Math.max(0, this.limits.rollouts - used);
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

  private projectedMeasurement(spend: Spend) {
    return projectMeasurement(spend, this.reservedRollouts);
  }

  private evaluateLimits(): void {
    if (this.exhausted) return;
    const spend = this.bounded();
    const tokens = spend.promptTokens + spend.completionTokens;
    const held = this.projectedMeasurement(spend);
    const checks: [BudgetExhaustedError["resource"], number, number | undefined][] = [
      ["rollouts", spend.rollouts + held.rollouts, this.limits.rollouts],
      ["tokens", tokens + held.tokens, this.limits.tokens],
      ["costUsd", spend.costUsd + held.costUsd, this.limits.costUsd],
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

/** The measurement's share of the limits while training runs (zero under `scope: training`). */
function projectMeasurement(spend: Spend, rollouts: number) {
  if (rollouts === 0 || spend.rollouts === 0) return { rollouts, tokens: 0, costUsd: 0 };
  const agentTokens = spend.promptTokens + spend.completionTokens - spend.refinerTokens;
  const agentCost = spend.costUsd - spend.refinerCostUsd;
  return {
    rollouts,
    tokens: (agentTokens / spend.rollouts) * rollouts,
    costUsd: (agentCost / spend.rollouts) * rollouts,
  };
}

/** The refinement roles' share of a spend: of its cost when priced, else of its tokens. */
export function refinementShare(spend: Spend): number {
  const tokens = spend.promptTokens + spend.completionTokens;
  if (spend.costUsd > 0) return spend.refinerCostUsd / spend.costUsd;
  return tokens > 0 ? spend.refinerTokens / tokens : 0;
}
