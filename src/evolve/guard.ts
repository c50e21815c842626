import path from "node:path";
import type { LoadedConfig } from "../config/config-schema.js";
import type { Task } from "../config/task-schema.js";
import { applyEdits } from "../harness/apply-edits.js";
import type { GuardContext } from "../harness/guard-context.js";
import {
  expectedAnswerStrings,
  type LabelWord,
  labelWordSteps,
  labelWords,
} from "../harness/label-words.js";
import type { GuardRejection, LabelFlag, LoadedHarness, PlannedEdit } from "../harness/types.js";
import type { RefinementRecord } from "../refine/refinement-record.js";
import { runStepsYielding } from "../safety/steps.js";

// Where an edit is guarded: every edit the loop applies — a refinement's, a pruned or ablated
// candidate's rebuild — goes through src/harness's applyEdits with the run's guard context here.

/**
 * The guard context of a run: editable globs from the config; protected paths (the config file,
 * both task files, a command scorer's script); and the expected answers and inputs of train AND
 * held-out tasks, each task's input with its answers (small answers are checked in context,
 * held-out ones also spelled out). Only the guard sees held-out data; no role ever does.
 */
export function buildGuardContext(options: {
  loaded: LoadedConfig;
  train: Task[];
  heldout: Task[];
  /** The splits' label words when already found (`labelWordSteps`). */
  labelWords?: LabelWord[];
}): GuardContext {
  const { loaded, train, heldout } = options;
  const { config, root } = loaded;
  const protectedPaths = [
    loaded.path,
    path.resolve(root, config.tasks.train),
    path.resolve(root, config.tasks.heldout),
  ];
  const scorers = [config.tasks.scorer, ...[...train, ...heldout].map((task) => task.scorer)];
  for (const scorer of scorers) {
    if (scorer?.kind !== "command") continue;
    // The scorer command is a shell line; every word that names an existing-looking path is protected.
    for (const word of scorer.command.split(/\s+/))
      if (/[./]/.test(word)) protectedPaths.push(path.resolve(root, word));
  }
  const all = [...train, ...heldout];
  return {
    editable: [...config.harness.editable],
    protectedPaths: [...new Set(protectedPaths)],
    forbiddenStrings: [
      ...new Set(all.flatMap((task) => expectedAnswerStrings(task.expected))),
    ].filter((text) => text.trim() !== ""),
    forbiddenInputs: all.map((task) => task.input),
    tasks: all.map((task, index) => ({
      input: task.input,
      answers: expectedAnswerStrings(task.expected).filter((text) => text.trim() !== ""),
      heldout: index >= train.length,
    })),
    labelWords: options.labelWords ?? labelWords({ train, heldout, scorer: config.tasks.scorer }),
  };
}

/**
 * The splits' label words (`labelWords`), scanned letting the event loop turn: seconds at
 * thousands of tasks, during which Ctrl-C must still stop the run.
 */
export function findLabelWords(
  loaded: LoadedConfig,
  splits: { train: Task[]; heldout: Task[] },
): Promise<LabelWord[]> {
  return runStepsYielding(labelWordSteps({ ...splits, scorer: loaded.config.tasks.scorer }));
}

/** A refinement after the guards: the edits that passed, the ones refused, and the candidate. */
export interface GuardedEdits {
  applied: PlannedEdit[];
  guardRejections: GuardRejection[];
  /** Applied edits that bring label words: allowed, listed for the reviewer. */
  labelFlags: LabelFlag[];
  /** Absent when there is nothing to validate (`reason` says why). */
  candidate?: LoadedHarness;
  reason?: string;
}

/** Applies a refinement's planned edits to `harness` through the guards (pure; replays identically on resume). */
export function guardRefinement(options: {
  harness: LoadedHarness;
  refinement: RefinementRecord;
  guard: GuardContext;
}): GuardedEdits {
  const { harness, refinement, guard } = options;
  if (refinement.outcome !== "accepted") {
    const why = refinement.rejection?.reason ?? refinement.outcome;
    return {
      applied: [],
      guardRejections: [],
      labelFlags: [],
      reason: `refinement rejected: ${why}`,
    };
  }
  if (refinement.edits.length === 0)
    return {
      applied: [],
      guardRejections: [],
      labelFlags: [],
      reason: "the Editor planned no edits",
    };
  const guarded = applyEdits({ harness, edits: refinement.edits, guard });
  const base = {
    applied: guarded.applied,
    guardRejections: guarded.rejected,
    labelFlags: guarded.flagged,
  };
  if (guarded.applied.length === 0)
    return { ...base, reason: `every edit was refused by the guards (${guarded.rejected.length})` };
  if (guarded.harness.hash === harness.hash)
    return { ...base, reason: "the edits leave the harness unchanged" };
  return { ...base, candidate: guarded.harness };
}

/** A candidate rebuilt on `parent` from some of a proposal's edits (pruning, ablation), through the guards. */
export function rebuildCandidate(options: {
  parent: LoadedHarness;
  edits: PlannedEdit[];
  guard: GuardContext;
}): { harness: LoadedHarness; applied: PlannedEdit[] } {
  const rebuilt = applyEdits({
    harness: options.parent,
    edits: options.edits,
    guard: options.guard,
  });
  return { harness: rebuilt.harness, applied: rebuilt.applied };
}
