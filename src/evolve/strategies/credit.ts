import type { Task } from "../../config/task-schema.js";
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
// An edit naming one train task's item (a `one-task` label word: "When a question mentions
// Rinmark Faolla, …") is a change of its own, checked even when its targets all pass: under the
// same pattern as the real fix it would otherwise ride on that fix's credit, and the task it
// names is never its credit (attribution.ts), nor a reason to put it back (prune.ts).

/**
 * The changes whose credit is checked, in a bundle of several: those that fixed some but not all
 * targets, and an edit naming one train task's item (`names`) that fixed any — it may ride on
 * the fix its pattern got from another edit.
 */
function uncertain(attributions: readonly ChangeAttribution[]): ChangeAttribution[] {
  if (attributions.length < 2) return [];
  return attributions.filter(
    (change) =>
      change.fixed.length > 0 &&
      (change.fixed.length < change.targets.length || change.names !== undefined),
  );
}

/**
 * The attributions with each uncertain change's credit checked by leaving it out (`leaveOut`: at
 * most one rollout per fixed target), and the stage that records it (undefined when nothing was checked). Not checked
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
  // Each change's left-out runs are independent of the others': they run side by side.
  const leftOut = await Promise.all(
    checked.map((change, index) => leaveOut(validation, kept, change, index + 1)),
  );
  const notIts = leftOut.map((run) => run.notIts);
  const uncredited = new Map(checked.map((change, index) => [change, notIts[index]]));
  const outcomes = checked.map((change, index) => creditOutcome(change, leftOut[index]));
  const attributions = options.attributions.map((change) => {
    const notIts = uncredited.get(change);
    return notIts ? { ...change, fixed: change.fixed.filter((id) => !notIts.has(id)) } : change;
  });
  const lost = [...uncredited.values()].reduce((sum, ids) => sum + ids.size, 0);
  const unrun = leftOut.reduce((sum, run) => sum + run.unrun, 0);
  const stage: ValidationStage = {
    step: ecdysisStep.credit,
    role: "note",
    changes: outcomes,
    figures: { checked: checked.length, "targets not credited": lost, "targets not re-run": unrun },
    decision: {
      accepted: true,
      reason: `${checked.length} change(s) left out once on their fixed targets: ${lost} target(s) pass without them${unrun > 0 ? `, ${unrun} not re-run (a change's first target failed again without it)` : ""}`,
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

/** A change left out: its fixed targets that pass without it, and those not re-run. */
interface LeftOut {
  notIts: Set<string>;
  /** Fixed targets not re-run: one already failed again without the change, which keeps it. */
  unrun: number;
}

/**
 * Leaves one change out and re-runs its fixed targets (batch order) in two waves: the first
 * target alone, then — only when it still passes without the change — the rest. Pruning asks
 * only whether a change is credited with any target, so a first target that fails again without
 * it settles that at one rollout; the rest keep the credit attribution gave them.
 */
async function leaveOut(
  validation: Validation,
  kept: ChangeAttribution["edits"],
  change: ChangeAttribution,
  number: number,
): Promise<LeftOut> {
  const own = new Set(change.edits);
  const { harness } = rebuildCandidate({
    parent: validation.parent,
    edits: kept.filter((edit) => !own.has(edit)),
    guard: validation.context.guard,
  });
  const label = `iteration ${validation.scope.index}: credit per edit`;
  const passingWithout = async (tasks: Task[], stage: string) => {
    const run = await validation.steps.evaluate({
      stage: validation.scope.key(stage),
      tasks,
      harness,
      label,
    });
    const stillPass = passMapOf(run.result);
    return tasks.filter((task) => stillPass.get(task.id) === true).map((task) => task.id);
  };
  const [first, ...rest] = validation.batch.filter((task) => change.fixed.includes(task.id));
  const firstPasses = await passingWithout([first], `credit-${number}`);
  if (firstPasses.length === 0) return { notIts: new Set(), unrun: rest.length };
  const restPass = rest.length > 0 ? await passingWithout(rest, `credit-${number}-rest`) : [];
  return { notIts: new Set([...firstPasses, ...restPass]), unrun: 0 };
}

function creditOutcome(change: ChangeAttribution, { notIts, unrun }: LeftOut): ChangeOutcome {
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
        : unrun > 0
          ? `its first fixed target fails again without it (${unrun} more not re-run)`
          : `each of its ${change.fixed.length} fixed target(s) fails again without it`,
  };
}
