import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type RolloutRecord, rolloutRecordSchema } from "../../src/eval/types.js";

// The rollout cache as it was before segment files (commit 0203872): kept only as the baseline
// `bench/rollout-cache.ts` measures the current cache against, paired, on the same records.

/**
 * Content-addressed rollout records on disk (`<dir>/<key[0..2]>/<key>.json`). Written to a temp
 * file and renamed, so a killed process never leaves a half record; a corrupt or foreign file
 * reads as a miss and is recomputed. The cache is the run's journal: finished rollouts survive
 * a crash and are not paid for again.
 */
export class OneFilePerRolloutCache {
  constructor(readonly dir: string) {}

  /** The stored record of `key`, or undefined when absent, unreadable or invalid. */
  async get(key: string): Promise<RolloutRecord | undefined> {
    if (!/^[0-9a-f]{8,}$/.test(key)) return undefined;
    let text: string;
    try {
      text = await readFile(this.pathOf(key), "utf8");
    } catch {
      return undefined;
    }
    try {
      const parsed = rolloutRecordSchema.safeParse(JSON.parse(text));
      return parsed.success && parsed.data.key === key ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores a record under its key (atomic replace). */
  async put(record: RolloutRecord): Promise<void> {
    const target = this.pathOf(record.key);
    await mkdir(join(this.dir, record.key.slice(0, 2)), { recursive: true });
    const temporary = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const stored: RolloutRecord = { ...record, cached: false };
    try {
      await writeFile(temporary, JSON.stringify(stored));
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** Every valid record in the cache (for merging shard caches). */
  async *records(): AsyncGenerator<RolloutRecord> {
    let buckets: string[];
    try {
      buckets = (await readdir(this.dir)).filter((name) => /^[0-9a-f]{2}$/.test(name)).sort();
    } catch {
      return;
    }
    for (const bucket of buckets) {
      const names = (await readdir(join(this.dir, bucket)))
        .filter((name) => name.endsWith(".json"))
        .sort();
      for (const name of names) {
        const record = await this.get(name.slice(0, -".json".length));
        if (record) yield record;
      }
    }
  }

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
