import type { LoadedConfig } from "../config/config-schema.js";
import type { Splits } from "../config/split-overlap.js";
import type { LoadedHarness } from "../harness/types.js";
import type { BudgetTracker } from "./budget.js";
import { acquireFolderLock, type FolderLock } from "./folder-lock.js";
import { Journal } from "./journal.js";
import { runKeyOf, runKeyParts } from "./run-key.js";

/** A run's hold on its folders and its journal. */
export interface RunStart {
  journal: Journal;
  /** Releases the locks (also released on process exit). */
  release(): Promise<void>;
}

/**
 * Takes the lock of the output folder (a second run on it refuses, naming the holder; a killed
 * run's lock is taken over with a warning), then opens the journal
 * under the run key of every input that determines the result (`run-key.ts`). Called after the
 * inputs are loaded and checked, so a bad input writes nothing.
 */
export async function startRun(options: {
  loaded: LoadedConfig;
  outDir: string;
  strategy: string;
  limit?: number;
  seed: LoadedHarness;
  splits: Splits;
  ecdysisVersion?: string;
  budget: BudgetTracker;
  restart?: boolean;
  warn?: (message: string) => void;
  afterStage?: (stage: string) => void;
  redact: <T>(value: T) => T;
  now: () => number;
}): Promise<RunStart> {
  const { outDir, warn } = options;
  const limited = options.limit === undefined ? "" : ` --limit ${options.limit}`;
  const purpose = `ecdysis evolve --out ${outDir}${limited}`;
  const parts = await runKeyParts(options);
  const locks: FolderLock[] = [];
  const release = async () => {
    for (const lock of locks.splice(0).reverse()) await lock.release();
  };
  try {
    // The output folder only: the caches are content-addressed and written atomically, so runs
    // into other folders (a comparison of two strategies) may share them.
    locks.push(
      await acquireFolderLock({
        folder: outDir,
        what: "output folder",
        purpose,
        warn,
        now: options.now,
      }),
    );
    const journal = await Journal.open({
      outDir,
      runKey: runKeyOf(parts),
      parts,
      budget: options.budget,
      afterStage: options.afterStage,
      redact: options.redact,
      restart: options.restart,
      warn,
    });
    return { journal, release };
  } catch (error) {
    await release();
    throw error;
  }
}
