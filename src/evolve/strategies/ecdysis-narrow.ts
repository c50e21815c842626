import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { typedSetting } from "../../harness/index.js";
import type { PlannedEdit } from "../../harness/types.js";
import type { RefinementRecord } from "../../refine/refinement-record.js";
import { mayAttempt } from "../memory.js";
import type { RunContext } from "../run-context.js";
import type { ObservingState } from "./ecdysis-propose.js";

// Narrow patterns (issue #27 items 3 and 4): a pattern below the support threshold is never
// systematic — a text edit fitted to two tasks may name their items — but a typed setting (a
// number, a boolean, an enumerated value) carries no item, and the targeted test accepts one that
// fixes a named task beyond the background of flips. So the narrow patterns of two tasks or more
// are attempted with typed settings only, in two ways:
// - `rider`: alongside the systematic patterns of every proposal, in the same refinement. On the
//   bench a 2-task pattern of one batch (lost context, a tool error given up on) was most often
//   the next iteration's systematic fix: found narrow because an earlier failure masked it. Each
//   rider is its own change, credited per edit, so one that fixes none of its tasks is pruned.
// - `last-resort`: once no systematic pattern is left to attempt, observing more found nothing
//   new, and a batch still fits in the budget, before the run stops.

/** How a narrow pattern is attempted (the reason it is relabelled with). */
export type NarrowUse = "rider" | "last-resort";

/**
 * The narrow patterns to attempt, relabelled for the roles (which repair only systematic
 * patterns) with a `rider` or `last-resort` reason: model-specific only for want of support (not
 * flaky, model-only or unknown to the model), at least two tasks, attempts left on this harness
 * (the configured `maxAttemptsPerPattern`, not the budget-grown limit), and only while two
 * batches still fit in the budget (a last resort needs a rollout limit; a rider does not).
 */
export function narrowPatterns(options: {
  context: RunContext;
  state: ObservingState;
  patterns: readonly FailurePattern[];
  batchSize: number;
  use: NarrowUse;
}): FailurePattern[] {
  const { context, state, batchSize, use } = options;
  const left = context.rolloutsLeft?.();
  // A last resort spends budget left over, so needs a limit; a rider is there for speed.
  if (left === undefined ? use === "last-resort" : left <= 2 * batchSize) return [];
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
      reasons: [...pattern.reasons, { code: use, detail: narrowWhy(use, left) }],
    }));
}

/**
 * A rider's reason names no budget figure: riders are also selected for the refinement started
 * ahead, while re-samples may be spending, and the roles' request must not depend on that timing.
 */
function narrowWhy(use: NarrowUse, left: number | undefined): string {
  return use === "rider"
    ? "attempted with typed settings only, alongside the systematic patterns"
    : `attempted with typed settings only: no systematic pattern is left to attempt and ${left} rollouts remain`;
}

/**
 * The refinement without the text edits that serve only narrow patterns (those of `refined`
 * relabelled for `use`), each dropped with why (a text edit fitted to a narrow pattern's few
 * tasks may name their items). A text edit stays only when it names one of the other refined
 * patterns — by id or name, as given: a key the model slipped or left out does not keep it.
 */
export function typedSettingsFor(
  refinement: RefinementRecord,
  refined: readonly FailurePattern[],
  use: NarrowUse,
): RefinementRecord {
  const narrow = (pattern: FailurePattern) => pattern.reasons.some((reason) => reason.code === use);
  if (!refined.some(narrow)) return refinement;
  const others = new Set(
    refined.filter((pattern) => !narrow(pattern)).flatMap((pattern) => [pattern.id, pattern.name]),
  );
  const dropped = refinement.edits.filter(
    (edit) => !isTypedSetting(edit) && !edit.patterns.some((key) => others.has(key)),
  );
  if (dropped.length === 0) return refinement;
  return {
    ...refinement,
    edits: refinement.edits.filter((edit) => !dropped.includes(edit)),
    droppedEdits: [
      ...refinement.droppedEdits,
      ...dropped.map((edit) => ({
        change: null,
        stage: "refused" as const,
        reason: `${use === "rider" ? "a rider" : "a last-resort attempt"} of a narrow pattern takes typed settings only (a text edit fitted to its few tasks may name their items)`,
        edit,
      })),
    ],
  };
}

function isTypedSetting({ edit }: PlannedEdit): boolean {
  return edit.kind === "set" && typedSetting(edit.path, edit.value);
}
