/**
 * A long synchronous scan written as a generator that yields between chunks of its work (every
 * `stepSize` items: a count, so the result and the chunks never depend on time). Run whole with
 * `runSteps`; run with `runStepsYielding` where the event loop must keep turning meanwhile: a
 * SIGINT/SIGTERM handler runs only between macrotasks, so a 10-second scan that never yields
 * ignores Ctrl-C for 10 seconds (the split check at 8,000 train tasks did).
 */
export type Steps<T> = Generator<void, T, void>;

/** Items a scan handles between two yields (a few milliseconds of work). */
export const stepSize = 256;

/** Runs `steps` to the end at once (for callers that are themselves synchronous). */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Runs `steps`, letting the event loop turn (timers, I/O, signal handlers) at every yield. */
export async function runStepsYielding<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
