import type { LoadedConfig } from "../config/config-schema.js";
import type { Splits } from "../config/split-overlap.js";
import type { Task } from "../config/task-schema.js";
import type { LoadedHarness } from "../harness/types.js";
import type { BudgetTracker } from "./budget.js";
import { acquireFolderLock } from "./folder-lock.js";
import { Journal } from "./journal.js";
import { type BudgetCoverage, coverMeasurement } from "./measurement-budget.js";
import { runKeyOf, runKeyParts } from "./run-key.js";
import type { Strategy } from "./strategy.js";

/** A run's hold on its folders and its journal. */
export interface RunStart {
  journal: Journal;
  /** What the budget covers (`coverMeasurement`). */
  coverage: BudgetCoverage;
  /** The run key the journal is opened under (what the phases of a split run agree on). */
  runKey: string;
  /** Releases the lock (also released on process exit). */
  release(): Promise<void>;
}

/**
 * Checks the budget can cover the run (`coverMeasurement`), takes the lock of the output folder
 * (a second run on it refuses, naming the holder; a killed run's lock is taken over with a
 * warning), then opens the journal under the run key of every input that determines the result
 * (`run-key.ts`). Called after the inputs are loaded and checked, so a bad input writes nothing.
 */
export async function startRun(options: {
  loaded: LoadedConfig;
  outDir: string;
  strategy: Strategy;
  limit?: number;
  /** The loaded inputs: seed harness, whole splits, and the (limited) train and held-out tasks. */
  inputs: { seed: LoadedHarness; splits: Splits; train: Task[]; heldout: Task[] };
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
  const { inputs } = options;
  // A budget that cannot cover the run is refused before the lock or the journal is written.
  const coverage = coverMeasurement({
    loaded: options.loaded,
    strategy: options.strategy,
    trainSize: inputs.train.length,
    heldoutSize: inputs.heldout.length,
    budget: options.budget,
  });
  const parts = await runKeyParts({
    ...options,
    strategy: options.strategy.name,
    seed: inputs.seed,
    splits: inputs.splits,
  });
  // The output folder only: the caches are content-addressed and written atomically, so runs
  // into other folders (a comparison of two strategies) may share them.
  const lock = await acquireFolderLock({
    folder: outDir,
    what: "output folder",
    purpose,
    warn,
    now: options.now,
  });
  try {
    const runKey = runKeyOf(parts);
    const journal = await Journal.open({
      outDir,
      runKey,
      parts,
      budget: options.budget,
      afterStage: options.afterStage,
      redact: options.redact,
      restart: options.restart,
      warn,
    });
    return { journal, release: () => lock.release(), coverage, runKey };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
