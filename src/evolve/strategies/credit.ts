import { rebuildCandidate } from "../guard.js";
import { passMapOf } from "../records.js";
import type { ChangeOutcome, ValidationStage } from "../validation.js";
import type { ChangeAttribution } from "./attribution.js";
import { affordable } from "./ecdysis-budget.js";
import { ecdysisStep, type Validation } from "./ecdysis-validate.js";

// Credit per edit (issue #27 item 5). Attribution credits a change with each target of its own
// patterns that passes under the bundle, whichever change fixed it, so a generic rule riding
// along with a bundle (the quickstart's "Think step by step and be precise.") was credited with
// a step-limit task the calculator fixed. Before pruning, each change of a bundle that fixed only
// part of its targets is left out once, on those fixed targets alone: a target that still passes
// without it is not its credit. A change left with none is then pruned like any change that
// fixed none of its targets — and put back, as always, when the bundle does worse without it.

/** The changes whose credit is checked: in a bundle of several, fixed some but not all targets. */
function uncertain(attributions: readonly ChangeAttribution[]): ChangeAttribution[] {
  if (attributions.length < 2) return [];
  return attributions.filter(
    (change) => change.fixed.length > 0 && change.fixed.length < change.targets.length,
  );
}

/**
 * The attributions with each uncertain change's credit checked by leaving it out (one rollout per
 * fixed target), and the stage that records it (undefined when nothing was checked). Not checked
 * (a note says so) when the budget left cannot carry those rollouts and still `reserve`.
 */
export async function creditPerEdit(options: {
  validation: Validation;
  kept: ChangeAttribution["edits"];
  attributions: ChangeAttribution[];
  /** Rollouts to leave for the verdict. */
  reserve: number;
}): Promise<{ attributions: ChangeAttribution[]; stage?: ValidationStage }> {
  const { validation, kept } = options;
  const checked = uncertain(options.attributions);
  if (checked.length === 0) return { attributions: options.attributions };
  const cost = checked.reduce((sum, change) => sum + change.fixed.length, 0);
  if (!affordable(validation.context, cost, options.reserve))
    return { attributions: options.attributions, stage: unchecked(validation, cost, checked) };
  // Each left-out run is independent of the others: they run side by side.
  const notIts = await Promise.all(
    checked.map(async (change, index) => {
      const own = new Set(change.edits);
      const rebuilt = rebuildCandidate({
        parent: validation.parent,
        edits: kept.filter((edit) => !own.has(edit)),
        guard: validation.context.guard,
      });
      const run = await validation.steps.evaluate({
        stage: validation.scope.key(`credit-${index + 1}`),
        tasks: validation.batch.filter((task) => change.fixed.includes(task.id)),
        harness: rebuilt.harness,
        label: `iteration ${validation.scope.index}: credit per edit`,
      });
      const stillPass = passMapOf(run.result);
      return new Set(change.fixed.filter((taskId) => stillPass.get(taskId) === true));
    }),
  );
  const uncredited = new Map(checked.map((change, index) => [change, notIts[index]]));
  const outcomes = checked.map((change, index) => creditOutcome(change, notIts[index]));
  const attributions = options.attributions.map((change) => {
    const notIts = uncredited.get(change);
    return notIts ? { ...change, fixed: change.fixed.filter((id) => !notIts.has(id)) } : change;
  });
  const lost = [...uncredited.values()].reduce((sum, ids) => sum + ids.size, 0);
  const stage: ValidationStage = {
    step: ecdysisStep.credit,
    role: "note",
    changes: outcomes,
    figures: { checked: checked.length, "targets not credited": lost },
    decision: {
      accepted: true,
      reason: `${checked.length} change(s) left out once on their fixed targets: ${lost} target(s) pass without them`,
    },
  };
  return { attributions, stage };
}

/** The note of a credit check the budget left cannot carry: every change keeps its credit. */
function unchecked(
  validation: Validation,
  cost: number,
  checked: ChangeAttribution[],
): ValidationStage {
  return {
    step: ecdysisStep.credit,
    role: "note",
    figures: { checked: 0, "targets not credited": 0 },
    decision: {
      accepted: true,
      reason: `not checked: the budget left (${validation.context.rolloutsLeft?.()} rollouts) cannot carry its ${cost} rollout(s) for ${checked.length} change(s) and the verdict's; each keeps the credit attribution gave it`,
    },
  };
}

function creditOutcome(change: ChangeAttribution, notIts: ReadonlySet<string>): ChangeOutcome {
  const credited = change.fixed.length - notIts.size;
  return {
    edits: change.edits,
    patterns: change.patterns.map((pattern) => pattern.name),
    patternIds: change.patterns.map((pattern) => pattern.id),
    kept: credited > 0,
    targets: change.targets.length,
    fixed: credited,
    reason:
      notIts.size > 0
        ? `${notIts.size} of its ${change.fixed.length} fixed target(s) pass without it: credited ${credited}`
        : `each of its ${change.fixed.length} fixed target(s) fails again without it`,
  };
}
