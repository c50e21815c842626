import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { typedSetting } from "../../harness/index.js";
import type { PlannedEdit } from "../../harness/types.js";
import type { RefinementRecord } from "../../refine/refinement-record.js";
import { mayAttempt } from "../memory.js";
import type { RunContext } from "../run-context.js";
import type { ObservingState } from "./ecdysis-propose.js";

// The last resort before a stop with budget left (issue #27 item 3): a pattern below the support
// threshold is never systematic — a text edit fitted to two tasks may name their items — but a
// typed setting (a number, a boolean, an enumerated value) carries no item. So once no systematic
// pattern is left to attempt, observing more found nothing new, and a batch still fits in the
// budget, the narrow patterns (two tasks or more) are attempted with typed settings only; the
// targeted test accepts a typed setting that fixes one named task beyond the background of flips.

/**
 * The narrow patterns to attempt, relabelled for the roles (which repair only systematic
 * patterns) with a `last-resort` reason: model-specific only for want of support (not flaky,
 * model-only or unknown to the model), at least two tasks, attempts left on this harness
 * (the configured `maxAttemptsPerPattern`, not the budget-grown limit).
 */
export function lastResortPatterns(options: {
  context: RunContext;
  state: ObservingState;
  patterns: readonly FailurePattern[];
  batchSize: number;
}): FailurePattern[] {
  const { context, state, batchSize } = options;
  const left = context.rolloutsLeft?.();
  if (left === undefined || left <= 2 * batchSize) return [];
  const scope = {
    maxAttempts: context.config.evolve.ecdysis.maxAttemptsPerPattern,
    harnessHash: state.harness.hash,
    sampleRound: state.sampleRound,
  };
  return options.patterns
    .filter(
      (pattern) =>
        pattern.kind === "model-specific" &&
        pattern.support.tasks >= 2 &&
        pattern.reasons.every((reason) => reason.code === "narrow") &&
        mayAttempt(pattern, state.memory, scope),
    )
    .map((pattern) => ({
      ...pattern,
      kind: "systematic" as const,
      reasons: [
        ...pattern.reasons,
        {
          code: "last-resort" as const,
          detail: `attempted with typed settings only: no systematic pattern is left to attempt and ${left} rollouts remain`,
        },
      ],
    }));
}

/**
 * The refinement with only its typed-setting edits; every other edit is dropped, with why (a text
 * edit for a narrow pattern may name its items).
 */
export function typedSettingsOnly(refinement: RefinementRecord): RefinementRecord {
  const text = refinement.edits.filter((edit) => !isTypedSetting(edit));
  if (text.length === 0) return refinement;
  const edits = refinement.edits.filter(isTypedSetting);
  return {
    ...refinement,
    edits,
    droppedEdits: [
      ...refinement.droppedEdits,
      ...text.map((edit) => ({
        change: null,
        stage: "refused" as const,
        reason:
          "a last-resort attempt of a narrow pattern takes typed settings only (a text edit fitted to its few tasks may name their items)",
        edit,
      })),
    ],
  };
}

function isTypedSetting({ edit }: PlannedEdit): boolean {
  return edit.kind === "set" && typedSetting(edit.path, edit.value);
}
