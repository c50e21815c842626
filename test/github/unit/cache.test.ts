import { describe, expect, it } from "vitest";
import {
  type CacheService,
  cacheAccess,
  restoreRolloutCache,
  rolloutCacheKeys,
  saveRolloutCache,
} from "../../../src/github/cache.js";

const keys = rolloutCacheKeys({
  configHash: "c".repeat(64),
  harnessHash: "h".repeat(64),
  runId: "7",
});

/** `@github/local-action`'s stand-in for `@actions/cache`: restore and save, no isFeatureAvailable. */
function localActionShape(calls: string[]): Partial<CacheService> {
  return {
    async restoreCache(_paths, primaryKey) {
      calls.push(`restore ${primaryKey}`);
      throw new Error("LOCAL_ACTION_WORKSPACE must be set when interacting with @actions/cache!");
    },
    async saveCache(_paths, key) {
      calls.push(`save ${key}`);
      return 1;
    },
  };
}

describe("the rollout cache degrades, never crashes", () => {
  it("a stand-in without isFeatureAvailable (local-action) is used as far as it goes; its failures only warn", async () => {
    const calls: string[] = [];
    const warnings: string[] = [];
    const service = localActionShape(calls) as CacheService;
    const warn = (line: string) => warnings.push(line);
    expect(await restoreRolloutCache({ dir: "/tmp/x", keys, warn, service })).toBeUndefined();
    expect(await saveRolloutCache({ dir: "/tmp/x", keys, warn, service })).toBe(true);
    expect(calls).toEqual([`restore ${keys.primary}`, `save ${keys.save}`]);
    expect(warnings).toEqual([
      "cache restore failed: LOCAL_ACTION_WORKSPACE must be set when interacting with @actions/cache!",
    ]);
  });

  it("a module with no restore/save, or a check that throws (GHES, act), is no cache: one warning, no call", async () => {
    expect(cacheAccess({})).toEqual({
      reason: "no cache service here (@actions/cache offers no restoreCache/saveCache)",
    });
    const throwing = {
      ...localActionShape([]),
      isFeatureAvailable: () => {
        throw new Error("Cache Service Url not found");
      },
    };
    expect(cacheAccess(throwing)).toEqual({
      reason: "cache service check failed: Cache Service Url not found",
    });
    const warnings: string[] = [];
    const warn = (line: string) => warnings.push(line);
    const service = throwing as CacheService;
    expect(await restoreRolloutCache({ dir: "/tmp/x", keys, warn, service })).toBeUndefined();
    expect(await saveRolloutCache({ dir: "/tmp/x", keys, warn, service })).toBe(false);
    expect(warnings).toEqual([
      "cache service check failed: Cache Service Url not found: rollouts start from an empty cache",
    ]);
  });

  it("a service that says it is unavailable is not called", async () => {
    const calls: string[] = [];
    const service = { ...localActionShape(calls), isFeatureAvailable: () => false } as CacheService;
    const warn = () => {};
    expect(await restoreRolloutCache({ dir: "/tmp/x", keys, warn, service })).toBeUndefined();
    expect(await saveRolloutCache({ dir: "/tmp/x", keys, warn, service })).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe("rollout cache keys of a split evolve", () => {
  it("each phase and shard saves under its own key and attempt, and restores its own first", () => {
    const shard = rolloutCacheKeys({
      configHash: "c".repeat(64),
      harnessHash: "h".repeat(64),
      runId: "7",
      runAttempt: "2",
      part: "measure-2of4",
    });
    expect(shard.save).toBe(`${keys.primary}-measure-2of4-7-2`);
    expect(shard.restore).toEqual([
      `${keys.primary}-measure-2of4-`,
      `${keys.primary}-`,
      keys.restore[1],
    ]);
    expect(keys.save).toBe(`${keys.primary}-7`);
  });
});
