import type { LoadedHarness, PlannedEdit } from "../../harness/types.js";
import {
  nothingLeftAfterPruning,
  promising,
  unchangedAfterPruning,
  worseWithout,
} from "../acceptance.js";
import { rebuildCandidate } from "../guard.js";
import type { PairedComparison } from "../paired-test.js";
import type { ChangeOutcome, Decision, ValidationStage } from "../validation.js";
import { attributeChanges, type ChangeAttribution, prunedChanges } from "./attribution.js";
import { creditPerEdit } from "./credit.js";
import { affordable } from "./ecdysis-budget.js";
import { ecdysisStep, type Validation } from "./ecdysis-validate.js";

/** Pruning rounds at most (each re-runs the cheap subset on a smaller candidate). */
const maxPruneRounds = 3;

/** Where pruning left the candidate. */
export interface Pruned {
  candidate: LoadedHarness;
  kept: PlannedEdit[];
  /** The cheap comparison of `candidate`. */
  cheap: PairedComparison;
  /** Nothing is left to validate (every change pruned, or the rest changes nothing). */
  terminal: boolean;
}

/**
 * Per-change attribution after cheap validation: changes that fixed none of their own
 * patterns' failing members are pruned and the cheap subset re-run on the candidate without
 * them — unless the candidate does worse without them (`worseWithout`): a change can help its
 * bundle without fixing its own targets (it may repair what another change breaks), so it stays
 * (`undone`), or the candidate without them would not parse (a command harness's edited files;
 * then they stay, unrun). Each round is a `pruning` stage: a `prune` when it took them out, a
 * `note` when they were put back.
 *
 * The verdict comes first: credit per edit runs only when the budget left carries it and still
 * `reserve` rollouts (what the verdict on this candidate needs), and a pruned candidate only when
 * the budget carries its whole batch (its cheap re-run and the rest); otherwise the changes stay
 * (a `note` saying so) and the full batch decides on the bundle as it is. A pruning cut short by
 * the budget would drop the candidate, and with it the fixes that did work.
 */
export async function pruneChanges(options: {
  validation: Validation;
  candidate: LoadedHarness;
  kept: PlannedEdit[];
  cheap: PairedComparison;
  runCheap: (harness: LoadedHarness, stage: string) => Promise<PairedComparison>;
  /** Rollouts the verdict on the unpruned candidate may still need (its batch tasks not yet run). */
  reserve?: number;
}): Promise<Pruned> {
  const { validation } = options;
  const { stages } = validation;
  let { candidate, kept, cheap } = options;
  const reserve = options.reserve ?? 0;
  for (let round = 1; ; round++) {
    const attributions = await attributionsOf({ validation, kept, cheap, round, reserve });
    const changes = prunedChanges(attributions);
    if (changes.length === 0) return { candidate, kept, cheap, terminal: false };
    const remaining = withoutChanges(attributions, changes);
    if (remaining.length === 0 || round > maxPruneRounds) {
      stages.push(
        pruningStage({ round, changes, decision: nothingLeftAfterPruning(changes.length) }),
      );
      return { candidate, kept, cheap, terminal: true };
    }
    const rebuilt = await rebuildWithout({ validation, kept, remaining, reserve });
    if ("decision" in rebuilt) {
      stages.push(pruningStage({ round, changes, ...rebuilt }));
      return { candidate, kept, cheap, terminal: !rebuilt.undone };
    }
    const stage = round === 1 ? "validate-cheap-pruned" : `validate-cheap-pruned-${round}`;
    const without = await options.runCheap(rebuilt.harness, stage);
    // A task a pruned change names (one train task's item) is no evidence for putting it back.
    const named = namedBy(attributions, changes);
    const putBack = worseWithout(omitTasks(cheap, named), omitTasks(without, named));
    const undone = putBack.accepted;
    const decision = undone ? putBack : promising(without);
    const ran = { candidateHash: rebuilt.harness.hash, comparison: without };
    stages.push(pruningStage({ round, changes, undone, decision, ran }));
    if (undone) return { candidate, kept, cheap, terminal: false };
    validation.candidates.set(rebuilt.harness.hash, {
      harness: rebuilt.harness,
      kept: rebuilt.applied,
    });
    candidate = rebuilt.harness;
    kept = rebuilt.applied;
    cheap = without;
  }
}

/**
 * Whether attribution alone (before credit per edit) will take a change out: then the rest of the
 * batch is not run ahead for this candidate, which pruning would replace (the pruned candidate
 * runs its own batch); the rest runs after pruning only when a change is put back.
 */
export function pruningAhead(validation: Validation, kept: PlannedEdit[], cheap: PairedComparison) {
  const attributed = attributeChanges({
    applied: kept,
    addressed: validation.addressed,
    before: validation.before,
    cheap,
    itemNames: validation.itemNames,
  });
  return prunedChanges(attributed).length > 0;
}

/**
 * Each change's attribution on the cheap comparison; in the first round, with its credit
 * checked by leaving it out (credit.ts), the stage recorded.
 */
async function attributionsOf(options: {
  validation: Validation;
  kept: PlannedEdit[];
  cheap: PairedComparison;
  round: number;
  reserve: number;
}): Promise<ChangeAttribution[]> {
  const { validation, kept } = options;
  const attributed = attributeChanges({
    applied: kept,
    addressed: validation.addressed,
    before: validation.before,
    cheap: options.cheap,
    itemNames: validation.itemNames,
  });
  if (options.round > 1) return attributed;
  const credit = await creditPerEdit({
    validation,
    kept,
    attributions: attributed,
    reserve: options.reserve,
  });
  if (credit.stage) validation.stages.push(credit.stage);
  return credit.attributions;
}

/**
 * Why a pruned candidate is not run, when the budget left cannot carry its whole batch besides
 * `reserve` (the unpruned candidate's rest of the batch, maybe in flight) (else undefined): the
 * changes stay, and the full batch decides on the bundle.
 */
function overBudget(validation: Validation, reserve: number): Decision | undefined {
  const size = validation.batch.length;
  if (affordable(validation.context, size, reserve)) return undefined;
  return {
    accepted: false,
    reason: `not pruned: the budget left (${validation.context.rolloutsLeft?.()} rollouts) cannot carry the pruned candidate's batch (${size}); the full batch decides on the bundle as it is`,
  };
}

/** One pruning round as a stage: a `prune` that took the changes out, or a `note` that put them back. */
function pruningStage(options: {
  round: number;
  changes: ChangeOutcome[];
  undone?: boolean;
  decision: Decision;
  ran?: { candidateHash: string; comparison: PairedComparison };
}): ValidationStage {
  const undone = options.undone ?? false;
  return {
    step: ecdysisStep.pruning,
    role: undone ? "note" : "prune",
    ...options.ran,
    changes: options.changes.map((change) => ({ ...change, kept: undone })),
    figures: { round: options.round },
    decision: options.decision,
  };
}

/**
 * The candidate without the pruned changes, or why there is none to run: it changes nothing
 * (terminal), or — a command harness's files may parse only with every edit in — it would not
 * parse, or the budget left cannot carry its batch (then nothing is pruned: `undone`, unrun).
 */
async function rebuildWithout(options: {
  validation: Validation;
  kept: PlannedEdit[];
  remaining: { edits: PlannedEdit[] }[];
  reserve: number;
}): Promise<
  { harness: LoadedHarness; applied: PlannedEdit[] } | { undone: boolean; decision: Decision }
> {
  const { validation } = options;
  const { parent } = validation;
  const keptEdits = new Set(options.remaining.flatMap((change) => change.edits));
  const rebuilt = rebuildCandidate({
    parent,
    edits: options.kept.filter((edit) => keptEdits.has(edit)),
    guard: validation.context.guard,
  });
  if (rebuilt.harness.hash === parent.hash)
    return { undone: false, decision: unchangedAfterPruning() };
  const unparsable = await validation.context.checkCandidate?.({
    candidate: rebuilt.harness,
    parent,
  });
  if (unparsable)
    return { undone: true, decision: { accepted: false, reason: `without them ${unparsable}` } };
  const unaffordable = overBudget(validation, options.reserve);
  return unaffordable ? { undone: true, decision: unaffordable } : rebuilt;
}

function withoutChanges<T extends { edits: PlannedEdit[] }>(
  attributions: T[],
  pruned: ChangeOutcome[],
): T[] {
  const prunedEdits = new Set(pruned.flatMap((change) => change.edits));
  return attributions.filter((change) => !change.edits.some((edit) => prunedEdits.has(edit)));
}

/** The batch tasks the pruned changes name by an item (`ChangeAttribution.names`). */
function namedBy(attributions: ChangeAttribution[], pruned: ChangeOutcome[]): Set<string> {
  const prunedEdits = new Set(pruned.flatMap((change) => change.edits));
  return new Set(
    attributions
      .filter((change) => change.edits.some((edit) => prunedEdits.has(edit)))
      .flatMap((change) => change.names ?? []),
  );
}

/** A comparison without the flips of `tasks`. */
function omitTasks(comparison: PairedComparison, tasks: Set<string>): PairedComparison {
  if (tasks.size === 0) return comparison;
  const kept = (ids: string[]) => ids.filter((id) => !tasks.has(id));
  return { ...comparison, fixed: kept(comparison.fixed), broken: kept(comparison.broken) };
}
