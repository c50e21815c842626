import { describe, expect, it } from "vitest";
import { InterruptedError } from "../../../src/errors/interrupted-error.js";
import type { ConfigFacts } from "../../../src/github/action-engine.js";
import { parseActionOptions } from "../../../src/github/action-options.js";
import type { CacheService } from "../../../src/github/cache.js";
import type { ModeContext } from "../../../src/github/mode-context.js";
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
