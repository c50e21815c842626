import type { Clock } from "../clock.js";

/**
 * A virtual clock for tests: `sleep` records the requested duration, advances virtual time and
 * resolves at once, so retry and rate-limit waits are asserted without waiting.
 */
export class RecordingClock implements Clock {
  readonly sleeps: number[] = [];
  private time: number;

  /** `start`: initial epoch ms; `tickMs`: virtual time added by every `now()` call. */
  constructor(options: { start?: number; tickMs?: number } = {}) {
    this.time = options.start ?? Date.UTC(2026, 0, 1);
    this.tickMs = options.tickMs ?? 0;
  }

  private readonly tickMs: number;

  now(): number {
    const current = this.time;
    this.time += this.tickMs;
    return current;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.time += Math.max(0, ms);
  }

  /** Moves virtual time forward without recording a sleep. */
  advance(ms: number): void {
    this.time += ms;
  }
}
