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

/**
 * Cache keys for the rollout cache: exact config + harness, then any run of the same config. A
 * phase of a split evolve (`part`: `search`, `measure-2of4`, `finish`) saves under its own key
 * and attempt, so the matrix jobs of one run never race for one key and a re-run attempt of a
 * shard restores what its cut-short attempt kept.
 */
export function rolloutCacheKeys(options: {
  configHash: string;
  harnessHash: string;
  runId: string;
  part?: string;
  runAttempt?: string;
}): {
  primary: string;
  save: string;
  restore: string[];
} {
  const prefix = `ecdysis-rollouts-${options.configHash.slice(0, 16)}-`;
  const primary = `${prefix}${options.harnessHash.slice(0, 16)}`;
  // Caches are immutable per key, so each run saves under its own key; restore finds the newest.
  if (!options.part)
    return { primary, save: `${primary}-${options.runId}`, restore: [`${primary}-`, prefix] };
  const own = `${primary}-${options.part}-`;
  return {
    primary,
    save: `${own}${options.runId}-${options.runAttempt ?? "1"}`,
    restore: [own, `${primary}-`, prefix],
  };
}

/** What a cache service offers here: all of it, the restore and save calls only, or nothing. */
type CacheAccess = { service: CacheService } | { reason: string };

/**
 * Whether `service` can be used, and if not, why. A stand-in that lacks `isFeatureAvailable`
 * (`@github/local-action`'s) but has restore and save is used as far as it goes; one that lacks
 * those, or whose check throws (GHES without the cache service, act), is no cache at all.
 */
export function cacheAccess(service: Partial<CacheService> | undefined): CacheAccess {
  if (typeof service?.restoreCache !== "function" || typeof service.saveCache !== "function")
    return { reason: "no cache service here (@actions/cache offers no restoreCache/saveCache)" };
  if (typeof service.isFeatureAvailable !== "function") return { service: service as CacheService };
  try {
    return service.isFeatureAvailable()
      ? { service: service as CacheService }
      : { reason: "cache service not available" };
  } catch (error) {
    return { reason: `cache service check failed: ${(error as Error).message}` };
  }
}

/** The cache service to use: the injected one, else `@actions/cache` as this runner provides it. */
function accessOf(service: CacheService | undefined): CacheAccess {
  return cacheAccess(service ?? (actionsCache as Partial<CacheService>));
}

/**
 * Restore the rollout cache folder. Returns the key hit, or undefined on a miss or when the cache
 * service is absent or partial (then it only warns: the run is slower, not wrong).
 */
export async function restoreRolloutCache(options: {
  dir: string;
  keys: ReturnType<typeof rolloutCacheKeys>;
  warn: (message: string) => void;
  service?: CacheService;
}): Promise<string | undefined> {
  const access = accessOf(options.service);
  if ("reason" in access) {
    options.warn(`${access.reason}: rollouts start from an empty cache`);
    return undefined;
  }
  try {
    return await access.service.restoreCache(
      [options.dir],
      options.keys.primary,
      options.keys.restore,
    );
  } catch (error) {
    options.warn(`cache restore failed: ${(error as Error).message}`);
    return undefined;
  }
}

/** Save the rollout cache folder under this run's key; failures (and no service) only warn. */
export async function saveRolloutCache(options: {
  dir: string;
  keys: ReturnType<typeof rolloutCacheKeys>;
  warn: (message: string) => void;
  service?: CacheService;
}): Promise<boolean> {
  const access = accessOf(options.service);
  if ("reason" in access) return false;
  try {
    await access.service.saveCache([options.dir], options.keys.save);
    return true;
  } catch (error) {
    options.warn(`cache save failed: ${(error as Error).message}`);
    return false;
  }
}
