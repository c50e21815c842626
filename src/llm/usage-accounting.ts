import type { ChatProvider, ChatResponse, Usage, UsageTotals } from "./types.js";

/** Price of a model, USD per million tokens (the shape of `model.price` in ecdysis.yml). */
export interface Price {
  promptPerMTok: number;
  completionPerMTok: number;
}

/** USD cost of one call's usage at `price`. */
export function costOf(usage: Usage, price: Price): number {
  return (
    (usage.promptTokens * price.promptPerMTok + usage.completionTokens * price.completionPerMTok) /
    1_000_000
  );
}

/** A provider that keeps running totals of what it spent. */
export interface AccountedProvider extends ChatProvider {
  totals(): UsageTotals;
}

/** Running usage totals, overall and per request `purpose`. */
export class UsageAccount {
  private readonly current: UsageTotals = emptyTotals();

  /** Counts one completed call (its tokens, cost and the retries it took). */
  recordResponse(purpose: string | undefined, response: ChatResponse): void {
    const totals = this.current;
    totals.calls += 1;
    totals.promptTokens += response.usage.promptTokens;
    totals.completionTokens += response.usage.completionTokens;
    totals.costUsd += response.costUsd;
    totals.retries += response.retries;
    const key = purpose ?? "unlabelled";
    const bucket = totals.byPurpose[key] ?? {
      calls: 0,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
    };
    totals.byPurpose[key] = bucket;
    bucket.calls += 1;
    bucket.promptTokens += response.usage.promptTokens;
    bucket.completionTokens += response.usage.completionTokens;
    bucket.costUsd += response.costUsd;
  }

  /** Counts retries spent on a call that failed in the end (it produced no response). */
  recordFailedRetries(retries: number): void {
    this.current.retries += retries;
  }

  /** A snapshot (a copy; later calls do not change it). */
  totals(): UsageTotals {
    return structuredClone(this.current);
  }
}

/** Totals with every counter at zero. */
export function emptyTotals(): UsageTotals {
  return { calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, retries: 0, byPurpose: {} };
}

/** Adds accounting to any provider (a scripted test double, a cache wrapper, …). */
export function withAccounting(provider: ChatProvider): AccountedProvider {
  const account = new UsageAccount();
  return {
    model: provider.model,
    baseUrl: provider.baseUrl,
    variant: provider.variant,
    async chat(request, options) {
      const response = await provider.chat(request, options);
      account.recordResponse(request.purpose, response);
      return response;
    },
    totals: () => account.totals(),
  };
}
