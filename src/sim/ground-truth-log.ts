import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { shortHash } from "./draw.js";

/** One line of the request-level ground truth (read only by src/bench). */
export interface GroundTruthEntry {
  request: number;
  model: string;
  seed: number;
  role: string;
  /** Hash of the task statement + model + seed; null when no statement was visible. */
  key: string | null;
  /** Hash of the task statement alone (joins requests of one task across models and seeds). */
  task: string | null;
  hits: string[];
}

/** Key of a task request in the ground-truth log. */
export function groundTruthKey(statement: string, model: string, seed: number): string {
  return shortHash("task", statement, model, seed);
}

/**
 * Appends ground-truth lines in order to a JSONL file; a no-op without a path. A failed write
 * does not reject in the background (that would be an unhandled rejection); the first failure
 * is kept, later lines are dropped, and `flush()` rejects with it.
 */
export class GroundTruthLog {
  private chain: Promise<void> = Promise.resolve();
  private ready = false;
  private failure: unknown;
  constructor(private readonly path: string | undefined) {}

  /** Queues one line. */
  write(entry: GroundTruthEntry): void {
    const path = this.path;
    if (!path) return;
    this.chain = this.chain.then(async () => {
      if (this.failure !== undefined) return;
      try {
        if (!this.ready) {
          await mkdir(dirname(path), { recursive: true });
          this.ready = true;
        }
        await appendFile(path, `${JSON.stringify(entry)}\n`);
      } catch (error) {
        this.failure = error;
      }
    });
  }

  /** Resolves when every queued line is on disk; rejects with the first write failure. */
  async flush(): Promise<void> {
    await this.chain;
    if (this.failure !== undefined) throw this.failure;
  }
}
