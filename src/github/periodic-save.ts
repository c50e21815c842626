/**
 * Calls `onTick` every `everyMs` until the returned function is called (the default: a timer
 * that keeps no process alive). Tests inject their own and tick by hand.
 */
export type Ticker = (everyMs: number, onTick: () => void) => () => void;

/** A `setInterval` ticker, unref'd: a tick never holds the process open. */
export const intervalTicker: Ticker = (everyMs, onTick) => {
  const timer = setInterval(onTick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * Runs `save(n)` (n = 1, 2, …) on every tick of `ticker` while a long phase runs, so a job killed
 * without a signal (SIGKILL at the job's time limit, a lost runner) keeps what the last save held.
 * A tick while a save is still running is skipped: saves never overlap. `stop()` ends the ticks
 * and resolves once a save in flight has finished, so the caller's final save comes after it.
 * `everyMs` 0 (or less) saves nothing.
 */
export function periodicSaves(options: {
  everyMs: number;
  save: (count: number) => Promise<unknown>;
  ticker?: Ticker;
}): { stop(): Promise<void> } {
  if (!(options.everyMs > 0)) return { stop: async () => {} };
  let count = 0;
  let inFlight: Promise<unknown> | undefined;
  const cancel = (options.ticker ?? intervalTicker)(options.everyMs, () => {
    if (inFlight) return;
    count += 1;
    inFlight = options
      .save(count)
      .catch(() => undefined)
      .finally(() => {
        inFlight = undefined;
      });
  });
  return {
    async stop() {
      cancel();
      await inFlight;
    },
  };
}
