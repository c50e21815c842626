import { describe, expect, it } from "vitest";
import { InterruptedError } from "../../../src/errors/interrupted-error.js";
import type { ConfigFacts } from "../../../src/github/action-engine.js";
import { parseActionOptions } from "../../../src/github/action-options.js";
import type { CacheService } from "../../../src/github/cache.js";
import type { ModeContext } from "../../../src/github/mode-context.js";
import type { Ticker } from "../../../src/github/periodic-save.js";
import { withRolloutCache } from "../../../src/github/run-services.js";

const facts = {
  cacheDir: "/tmp/ecdysis-cache",
  configHash: "c".repeat(64),
  harnessHash: "h".repeat(64),
} as ConfigFacts;

/** A cache service that records its calls. */
function recordingCache(calls: string[]): CacheService {
  return {
    isFeatureAvailable: () => true,
    async restoreCache(_paths, primaryKey) {
      calls.push(`restore ${primaryKey}`);
      return undefined;
    },
    async saveCache(_paths, key) {
      calls.push(`save ${key}`);
      return 1;
    },
  };
}

describe("withRolloutCache on SIGTERM", () => {
  it("leaves the engine at once, saves the cache under the shard's key, and rethrows the interrupt", async () => {
    const calls: string[] = [];
    const controller = new AbortController();
    const inputs: Record<string, string> = { phase: "measure", shard: "3/4" };
    const context = {
      options: parseActionOptions((name) => inputs[name] ?? ""),
      run: { runId: "99", runAttempt: "1" },
      cacheService: recordingCache(calls),
      signal: controller.signal,
    } as unknown as ModeContext;
    let started = false;
    const running = withRolloutCache(context, facts, () => {
      started = true;
      return new Promise<never>(() => {}); // an engine that would never stop on its own
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(true);
    controller.abort(new InterruptedError("SIGTERM"));
    const error = await running.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).exitCode).toBe(143);
    expect(calls).toEqual([
      `restore ecdysis-rollouts-${"c".repeat(16)}-${"h".repeat(16)}`,
      `save ecdysis-rollouts-${"c".repeat(16)}-${"h".repeat(16)}-measure-3of4-99-1`,
    ]);
  });
});

/** A ticker driven by hand: `tick()` runs one period. Records the period it was asked for. */
function manualTicker() {
  const state = { everyMs: 0, onTick: () => {}, stopped: false };
  const ticker: Ticker = (everyMs, onTick) => {
    Object.assign(state, { everyMs, onTick });
    return () => {
      state.stopped = true;
    };
  };
  return { ticker, state, tick: () => state.onTick() };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("withRolloutCache, periodic saves", () => {
  const key = `ecdysis-rollouts-${"c".repeat(16)}-${"h".repeat(16)}`;
  const contextWith = (inputs: Record<string, string>, cache: CacheService, ticker: Ticker) =>
    ({
      options: parseActionOptions((name) => inputs[name] ?? ""),
      run: { runId: "99", runAttempt: "2" },
      cacheService: cache,
      ticker,
    }) as unknown as ModeContext;

  it("saves the cache on every tick under its own key while the phase runs, then once at the end", async () => {
    // A job killed by SIGKILL at the 6-hour limit saved nothing: only a signal or the end saved.
    const calls: string[] = [];
    const clock = manualTicker();
    const context = contextWith(
      { phase: "measure", shard: "2/4" },
      recordingCache(calls),
      clock.ticker,
    );
    let finish: (value: string) => void = () => {};
    const running = withRolloutCache(
      context,
      facts,
      () => new Promise<string>((resolve) => (finish = resolve)),
    );
    await settle();
    expect(clock.state.everyMs).toBe(30 * 60_000); // the default, 30 minutes
    clock.tick();
    await settle();
    clock.tick();
    await settle();
    finish("done");
    expect(await running).toBe("done");
    expect(clock.state.stopped).toBe(true);
    const own = `${key}-measure-2of4-99-2`;
    expect(calls).toEqual([`restore ${key}`, `save ${own}-p1`, `save ${own}-p2`, `save ${own}`]);
    // Every periodic key is found by the shard's own restore prefix.
    expect(calls.slice(1).every((call) => call.startsWith(`save ${key}-measure-2of4-`))).toBe(true);
  });

  it("never overlaps two saves, and the final save waits for one in flight", async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const slowCache: CacheService = {
      isFeatureAvailable: () => true,
      restoreCache: async () => undefined,
      async saveCache(_paths, savedKey) {
        order.push(`start ${savedKey.slice(-3)}`);
        if (savedKey.endsWith("-p1")) await new Promise<void>((resolve) => (release = resolve));
        order.push(`end ${savedKey.slice(-3)}`);
        return 1;
      },
    };
    const clock = manualTicker();
    const context = contextWith({ "cache-save-minutes": "5" }, slowCache, clock.ticker);
    let finish: () => void = () => {};
    const running = withRolloutCache(
      context,
      facts,
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    await settle();
    expect(clock.state.everyMs).toBe(5 * 60_000);
    clock.tick(); // p1 starts and hangs
    await settle();
    clock.tick(); // skipped: p1 still saving
    finish();
    await settle();
    expect(order).toEqual(["start -p1"]);
    release();
    await running;
    expect(order).toEqual(["start -p1", "end -p1", "start -99", "end -99"]);
  });

  it("cache-save-minutes 0 saves only at the end", async () => {
    const calls: string[] = [];
    const clock = manualTicker();
    const context = contextWith({ "cache-save-minutes": "0" }, recordingCache(calls), clock.ticker);
    await withRolloutCache(context, facts, async () => "done");
    expect(clock.state.everyMs).toBe(0);
    expect(calls).toEqual([`restore ${key}`, `save ${key}-99`]);
  });
});
