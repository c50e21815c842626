import type { Clock } from "./clock.js";

/**
 * Client-side requests-per-minute limit: request starts are spaced at least `60 000 / rpm` ms
 * apart on the injected clock. Spacing (rather than a per-minute burst) keeps a batch of
 * concurrent rollouts from hitting the server's own limiter all at once.
 */
export class RateLimiter {
  private readonly intervalMs: number;
  private nextSlot = Number.NEGATIVE_INFINITY;

  constructor(
    requestsPerMinute: number,
    private readonly clock: Clock,
  ) {
    if (!(requestsPerMinute > 0))
      throw new RangeError(`requestsPerMinute must be positive, got ${requestsPerMinute}`);
    this.intervalMs = 60_000 / requestsPerMinute;
  }

  /** Waits until this caller may start a request; slots are reserved in call order. */
  async acquire(signal?: AbortSignal): Promise<void> {
    const now = this.clock.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await this.clock.sleep(slot - now, signal);
  }
}
