import { mkdtemp, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { RolloutSegments } from "./rollout-segments.js";
import type { EvalResult, RolloutRecord } from "./types.js";

/**
 * Holds an evaluation's records on disk while it runs, so `records.jsonl` can be written in its
 * canonical order (task id, sample) without holding every trace in memory: each record is
 * appended as scored (exactly as returned: verdict as scored now, cached or not, latency), then
 * read back in order. The spool folder sits beside the output and is removed when written.
 */
export class RecordsSpool {
  private readonly pending: Promise<void>[] = [];
  private failure: unknown;

  private constructor(
    private readonly dir: string,
    private readonly segments: RolloutSegments,
  ) {}

  /** A spool in a fresh folder under `parent`. */
  static async open(parent: string): Promise<RecordsSpool> {
    const dir = await mkdtemp(join(parent, ".records-spool-"));
    return new RecordsSpool(dir, new RolloutSegments(dir));
  }

  /** Keeps a record (as `evaluate`'s `onRecord`: never throws; a write failure surfaces in `write`). */
  add(record: RolloutRecord): void {
    const { key, ...rest } = record;
    this.pending.push(
      this.segments.append(key, JSON.stringify({ key, ...rest })).catch((error: unknown) => {
        this.failure ??= error;
      }),
    );
  }

  /**
   * Writes `file` (atomically): the records of every task of `results`, in task-id then sample
   * order — what `records.jsonl` holds after an unsharded or merged run. Removes the spool.
   */
  async write(file: string, results: readonly EvalResult[]): Promise<void> {
    await Promise.all(this.pending);
    if (this.failure) throw this.failure;
    const keys = results
      .flatMap((result) => result.tasks)
      .sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0))
      .flatMap((task) => task.rolloutKeys);
    const temporary = `${file}.${process.pid}.tmp`;
    const out = await open(temporary, "w");
    try {
      let chunk: string[] = [];
      let size = 0;
      for (const key of new Set(keys)) {
        const line = await this.segments.read(key);
        if (line === undefined) throw new Error(`records spool: the record of ${key} is missing`);
        chunk.push(line);
        size += line.length;
        if (size < 1 << 20) continue;
        await out.write(`${chunk.join("\n")}\n`);
        chunk = [];
        size = 0;
      }
      if (chunk.length > 0) await out.write(`${chunk.join("\n")}\n`);
    } finally {
      await out.close();
    }
    await rename(temporary, file);
    await this.discard();
  }

  /** Removes the spool folder. */
  async discard(): Promise<void> {
    await Promise.all(this.pending);
    await this.segments.close();
    await rm(this.dir, { recursive: true, force: true });
  }
}
