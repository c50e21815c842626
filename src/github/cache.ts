import * as actionsCache from "@actions/cache";

/** The slice of `@actions/cache` used here (injectable for tests). */
export interface CacheService {
  isFeatureAvailable(): boolean;
  restoreCache(
    paths: string[],
    primaryKey: string,
    restoreKeys?: string[],
  ): Promise<string | undefined>;
  saveCache(paths: string[], key: string): Promise<number>;
}

/** Cache keys for the rollout cache: exact config + harness, then any run of the same config. */
export function rolloutCacheKeys(options: {
  configHash: string;
  harnessHash: string;
  runId: string;
}): {
  primary: string;
  save: string;
  restore: string[];
} {
  const prefix = `ecdysis-rollouts-${options.configHash.slice(0, 16)}-`;
  const primary = `${prefix}${options.harnessHash.slice(0, 16)}`;
  // Caches are immutable per key, so each run saves under its own key; restore finds the newest.
  return { primary, save: `${primary}-${options.runId}`, restore: [`${primary}-`, prefix] };
}

/**
 * Restore the rollout cache folder. Returns the key hit, or undefined on a miss or when the cache
 * service is absent (then it only warns: the run is slower, not wrong).
 */
export async function restoreRolloutCache(options: {
  dir: string;
  keys: ReturnType<typeof rolloutCacheKeys>;
  warn: (message: string) => void;
  service?: CacheService;
}): Promise<string | undefined> {
  const service = options.service ?? actionsCache;
  if (!service.isFeatureAvailable()) {
    options.warn("cache service not available: rollouts start from an empty cache");
    return undefined;
  }
  try {
    return await service.restoreCache([options.dir], options.keys.primary, options.keys.restore);
  } catch (error) {
    options.warn(`cache restore failed: ${(error as Error).message}`);
    return undefined;
  }
}

/** Save the rollout cache folder under this run's key; failures only warn. */
export async function saveRolloutCache(options: {
  dir: string;
  keys: ReturnType<typeof rolloutCacheKeys>;
  warn: (message: string) => void;
  service?: CacheService;
}): Promise<boolean> {
  const service = options.service ?? actionsCache;
  if (!service.isFeatureAvailable()) return false;
  try {
    await service.saveCache([options.dir], options.keys.save);
    return true;
  } catch (error) {
    options.warn(`cache save failed: ${(error as Error).message}`);
    return false;
  }
}
