/**
 * One limit on agent rollouts in flight, shared by every evaluation of a run that is handed it
 * (the four measurements of an evolve run, an ablation's concurrent evaluations): each
 * evaluation keeps its own pool, but a rollout that must run the agent first takes a slot here,
 * so the run never has more than `limit` agents running at once whatever runs concurrently.
 * Cache hits take no slot. Waiters are served first come, first served; a waiter whose signal
 * aborts leaves the queue at once.
 */
export class RolloutSlots {
  private active = 0;
  private readonly waiters: Array<{ grant: () => void }> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`rollout slots must be a positive integer, got ${limit}`);
  }

  /** Rollouts holding a slot now. */
  get inUse(): number {
    return this.active;
  }

  /** Runs `work` in a slot; rejects with the signal's reason when it aborts while waiting. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at !== -1) this.waiters.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private release(): void {
    // The slot passes straight to the next waiter, so `active` never dips below the queue.
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.active -= 1;
  }
}
