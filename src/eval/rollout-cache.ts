import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { RolloutSegments } from "./rollout-segments.js";
import { type RolloutRecord, rolloutRecordSchema } from "./types.js";

const keyPattern = /^[0-9a-f]{8,}$/;
const bucketPattern = /^[0-9a-f]{2}$/;

/**
 * Content-addressed rollout records on disk: JSON lines in segment files under `dir`, one
 * segment per writer (`rollout-segments.ts`), so shard jobs on separate machines write separate
 * files and merging their caches is copying the files into one folder (a union: the same key is
 * the same rollout). A record is validated when read; a corrupt, foreign or cut-short line is a
 * miss and is recomputed. The cache is the run's journal: finished rollouts survive a crash and
 * are not paid for again. Folders of the earlier layout (`<key[0..2]>/<key>.json`, one file per
 * rollout) are still read.
 */
export class RolloutCache {
  private readonly segments: RolloutSegments;
  private legacy?: Promise<boolean>;

  constructor(readonly dir: string) {
    this.segments = new RolloutSegments(dir);
  }

  /** The stored record of `key`, or undefined when absent, unreadable or invalid. */
  async get(key: string): Promise<RolloutRecord | undefined> {
    if (!keyPattern.test(key)) return undefined;
    for (let line = await this.segments.read(key); line !== undefined; ) {
      const record = parseRecord(line, key);
      if (record) return record;
      // Not a record of this key (cut short, damaged, foreign): try its next copy.
      await this.segments.forget(key);
      line = await this.segments.read(key);
    }
    return (await this.hasLegacy()) ? this.legacyGet(key) : undefined;
  }

  /** Stores a record under its key (appended as one whole line; resolves once written). */
  async put(record: RolloutRecord): Promise<void> {
    // The key first, so the folder can be indexed without parsing whole lines.
    const { key, ...rest } = record;
    const stored: RolloutRecord = { key, ...rest, cached: false };
    await this.segments.append(key, JSON.stringify(stored));
  }

  /** Resolves once every record put so far is written (a checkpoint may copy the folder then). */
  flush(): Promise<void> {
    return this.segments.flush();
  }

  /** Closes the file this cache writes to; a later put opens a new one. */
  close(): Promise<void> {
    return this.segments.close();
  }

  /** Every valid record in the cache, ordered by key (for merging shard caches). */
  async *records(): AsyncGenerator<RolloutRecord> {
    const keys = new Set(await this.segments.keys());
    if (await this.hasLegacy()) for (const key of await this.legacyKeys()) keys.add(key);
    for (const key of [...keys].sort()) {
      const record = await this.get(key);
      if (record) yield record;
    }
  }

  /** Whether the folder holds records of the one-file-per-rollout layout (checked once). */
  private hasLegacy(): Promise<boolean> {
    this.legacy ??= readdir(this.dir).then(
      (names) => names.some((name) => bucketPattern.test(name)),
      () => false,
    );
    return this.legacy;
  }

  private async legacyGet(key: string): Promise<RolloutRecord | undefined> {
    const text = await readFile(join(this.dir, key.slice(0, 2), `${key}.json`), "utf8").catch(
      () => undefined,
    );
    return text === undefined ? undefined : parseRecord(text, key);
  }

  private async legacyKeys(): Promise<string[]> {
    const buckets = (await readdir(this.dir)).filter((name) => bucketPattern.test(name));
    const keys: string[] = [];
    for (const bucket of buckets) {
      const names = await readdir(join(this.dir, bucket)).catch(() => []);
      for (const name of names)
        if (name.endsWith(".json")) keys.push(name.slice(0, -".json".length));
    }
    return keys.filter((key) => keyPattern.test(key));
  }
}

/** A stored record, validated, or undefined when the text is not the record of `key`. */
function parseRecord(text: string, key: string): RolloutRecord | undefined {
  try {
    const parsed = rolloutRecordSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.key === key ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
