import type { Clock } from "./clock.js";

const windowMs = 60_000;

/**
 * Client-side tokens-per-minute limit over a sliding minute on the injected clock. A request
 * reserves its estimate (prompt plus the completion it may write) before it starts and settles
 * to what it really used; one request larger than the whole limit still runs, alone.
 */
export class TokenRateLimiter {
  private readonly spent: { at: number; tokens: number }[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly tokensPerMinute: number,
    private readonly clock: Clock,
  ) {
    if (!(tokensPerMinute > 0))
      throw new RangeError(`tokensPerMinute must be positive, got ${tokensPerMinute}`);
  }

  /**
   * Waits (in call order) until `estimate` fits into the last minute's spending, reserves it,
   * and returns the function that settles the reservation to the tokens actually used.
   */
  async acquire(estimate: number, signal?: AbortSignal): Promise<(actual: number) => void> {
    let entry: { at: number; tokens: number } | undefined;
    const turn = this.queue.then(async () => {
      for (;;) {
        signal?.throwIfAborted();
        const now = this.clock.now();
        while (this.spent.length > 0 && this.spent[0].at <= now - windowMs) this.spent.shift();
        const used = this.spent.reduce((sum, item) => sum + item.tokens, 0);
        if (this.spent.length === 0 || used + estimate <= this.tokensPerMinute) {
          entry = { at: now, tokens: estimate };
          this.spent.push(entry);
          return;
        }
        await this.clock.sleep(this.spent[0].at + windowMs - now, signal);
      }
    });
    this.queue = turn.catch(() => undefined);
    await turn;
    return (actual) => {
      if (entry) entry.tokens = Math.max(0, actual);
    };
  }
}
