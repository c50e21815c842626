import type { Task } from "../../config/task-schema.js";
import { formatPValue } from "../../eval/statistics.js";
import type { LoadedHarness, PlannedEdit } from "../../harness/types.js";
import {
  comparePaired,
  isAccepted,
  isPromising,
  type PairedComparison,
  type PassMap,
  type SampleComparison,
} from "../acceptance.js";
import { passMapOf, restrictPassMap, scoreOf } from "../records.js";
import type { PatternView } from "../stage-views.js";
import { stratifiedSample } from "../stratified-sample.js";
import type { IterationRecord, PrunedChange, Score, StrategyContext } from "../types.js";
import { type AblatedChange, ablateChanges } from "./ablate-changes.js";
import { attributeChanges, prunedChanges } from "./attribution.js";
import { confirmDiscordant } from "./confirm-discordant.js";
import { prefetchDiagnosis } from "./prefetch-diagnosis.js";
import { evaluateNotingFailures } from "./stream-notes.js";

/** The decision on one guarded proposal. */
export type ValidationOutcome =
  | {
      verdict: "accepted";
      candidate: LoadedHarness;
      kept: PlannedEdit[];
      reason: string;
      accuracy: number;
    }
  | {
      verdict: "rejected";
      reason: string;
      /** Tasks that passed before and fail under the candidate (what its changes broke). */
      broken?: string[];
    };

/** A guarded proposal and what it is validated against. */
export interface ProposalUnderTest {
  context: StrategyContext;
  index: number;
  batch: Task[];
  /** Pass/fail per batch task under the parent. */
  before: PassMap;
  parent: LoadedHarness;
  candidate: LoadedHarness;
  applied: PlannedEdit[];
  addressed: PatternView[];
}

/** How validation reports the changes it takes out of a proposal. */
export interface ValidationCallbacks {
  onPruned: (pruned: PrunedChange[]) => void;
  /** Changes of a rejected bundle that hurt on their own (remembered as rejected). */
  onDropped: (dropped: AblatedChange[]) => void;
}

/** Pruning rounds at most (each re-runs the cheap subset on a smaller candidate). */
const maxPruneRounds = 3;

/**
 * Validates a candidate: cheap subset (failing members of the addressed patterns + a stratified
 * regression sample of passing tasks) → per-change attribution: changes that fixed none of their
 * own pattern's failing members are pruned (recorded in `record.pruned` and reported through
 * `onPruned`) and the cheap subset re-run on the candidate without them — unless that run is no
 * longer promising while the bundle was, then they stay (`pruningUndone`) → fixed > broken →
 * full batch → one-sided exact McNemar; when too few tasks flipped for that test, the flipped
 * tasks are re-drawn `confirmSamples` times under both harnesses and tested draw by draw.
 * Writes the comparisons into `record.validation`.
 */
export async function validateProposal(
  options: ProposalUnderTest &
    ValidationCallbacks & {
      record: IterationRecord;
      /** Prefix of this validation's journal stages (default `iteration-<index>`). */
      scope?: string;
    },
): Promise<ValidationOutcome> {
  const { context, index, batch, before, record } = options;
  const scope = options.scope ?? `iteration-${index}`;
  const evolve = context.config.evolve;
  const failingMembers = new Set(
    options.addressed
      .flatMap((pattern) => pattern.taskIds)
      .filter((taskId) => before.get(taskId) === false),
  );
  const regression = new Set(
    stratifiedSample({
      items: batch.filter((task) => before.get(task.id) === true),
      size: evolve.regressionSample,
      category: (task) => task.category,
      rng: context.rng(index, 2),
    }).map((task) => task.id),
  );
  const cheapTasks = batch.filter((task) => failingMembers.has(task.id) || regression.has(task.id));
  const cheapIds = new Set(cheapTasks.map((task) => task.id));
  const runCheap = async (harness: LoadedHarness, stage: string) => {
    const run = await evaluateNotingFailures(context, {
      stage: `${scope}/${stage}`,
      tasks: cheapTasks,
      harness,
      label: `iteration ${index}: ${stage}`,
    });
    return comparePaired(restrictPassMap(before, cheapIds), passMapOf(run.result));
  };
  let candidate = options.candidate;
  let kept = options.applied;
  const prune = (pruned: PrunedChange[]): void => {
    record.pruned = [...(record.pruned ?? []), ...pruned];
    options.onPruned(pruned);
  };
  let cheap = await runCheap(candidate, "validate-cheap");
  record.validation.cheap = cheap;
  for (let round = 1; ; round++) {
    const attributions = attributeChanges({
      applied: kept,
      addressed: options.addressed,
      before,
      cheap,
    });
    const pruned = prunedChanges(attributions);
    if (pruned.length === 0) break;
    const prunedEdits = new Set(pruned.flatMap((change) => change.edits));
    const remaining = attributions.filter(
      (change) => !change.edits.some((edit) => prunedEdits.has(edit)),
    );
    if (remaining.length === 0 || round > maxPruneRounds) {
      prune(pruned);
      return {
        verdict: "rejected",
        reason: `no change fixed any of its own pattern's failing members (${pruned.length} change(s) pruned)`,
      };
    }
    const keptSet = new Set(remaining.flatMap((change) => change.edits));
    const rebuilt = context.deps.applyEdits({
      harness: options.parent,
      edits: kept.filter((edit) => keptSet.has(edit)),
      guard: context.guard,
    });
    if (rebuilt.harness.hash === options.parent.hash) {
      prune(pruned);
      return {
        verdict: "rejected",
        reason: "after pruning, the edits leave the harness unchanged",
      };
    }
    const without = await runCheap(
      rebuilt.harness,
      round === 1 ? "validate-cheap-pruned" : `validate-cheap-pruned-${round}`,
    );
    record.validation.cheapPruned = without;
    // A change can help its bundle without fixing its own targets (it may repair what another
    // change breaks): when the candidate was promising with it and is not without it, it stays.
    if (isPromising(cheap) && !isPromising(without)) {
      record.validation.pruningUndone = pruned.map((change) => change.patternNames.join(", "));
      break;
    }
    prune(pruned);
    candidate = rebuilt.harness;
    kept = rebuilt.applied;
    record.candidateHash = candidate.hash;
    cheap = without;
  }
  if (!isPromising(cheap))
    return {
      verdict: "rejected",
      reason: `cheap validation: fixed ${cheap.fixed.length} ≤ broken ${cheap.broken.length}`,
      broken: cheap.broken,
    };
  const shared = { context, index, batch, before, parent: options.parent, scope };
  const first = await testOnBatch({ ...shared, candidate, kept, stage: "validate-full" });
  record.validation.full = first.full;
  record.validation.confirm = first.confirm;
  record.validation.candidate = first.score;
  if (first.verdict === "accepted") return first;
  first.broken = first.full.broken;
  // A rejected bundle: try each of its changes alone and keep the ones that help on their own.
  const changes = attributeChanges({ applied: kept, addressed: options.addressed, before, cheap });
  if (changes.length < 2) return first;
  const ablated = await ablateChanges({
    context,
    index,
    scope,
    batch,
    before,
    parent: options.parent,
    changes,
    flipped: [...first.full.fixed, ...first.full.broken],
  });
  record.validation.ablation = ablated.map((change) => ({
    patterns: change.patternNames,
    fixed: change.alone.fixed.length,
    broken: change.alone.broken.length,
    kept: change.kept,
  }));
  const helping = ablated.filter((change) => change.kept);
  if (helping.length === 0 || helping.length === ablated.length) return first;
  options.onDropped(ablated.filter((change) => !change.kept));
  const rebuilt = context.deps.applyEdits({
    harness: options.parent,
    edits: helping.flatMap((change) => change.edits),
    guard: context.guard,
  });
  record.candidateHash = rebuilt.harness.hash;
  const second = await testOnBatch({
    ...shared,
    candidate: rebuilt.harness,
    kept: rebuilt.applied,
    stage: "validate-full-ablated",
  });
  record.validation.fullAblated = second.full;
  record.validation.confirmAblated = second.confirm;
  if (second.score) record.validation.candidate = second.score;
  return second.verdict === "accepted"
    ? second
    : {
        verdict: "rejected",
        reason: `${first.reason}; without the changes that hurt alone: ${second.reason}`,
        broken: first.broken,
      };
}

type BatchTest = ValidationOutcome & {
  full: PairedComparison;
  confirm?: SampleComparison;
  score?: Score;
};

/** Full batch, then (when too few tasks flipped for a per-task test) the draw-by-draw test. */
async function testOnBatch(options: {
  context: StrategyContext;
  index: number;
  batch: Task[];
  before: PassMap;
  parent: LoadedHarness;
  candidate: LoadedHarness;
  kept: PlannedEdit[];
  stage: string;
  scope: string;
}): Promise<BatchTest> {
  const { context, index, batch, before, candidate, kept, stage, scope } = options;
  const evolve = context.config.evolve;
  const fullEval = await evaluateNotingFailures(context, {
    stage: `${scope}/${stage}`,
    tasks: batch,
    harness: candidate,
    label: `iteration ${index}: full batch`,
  });
  const after = passMapOf(fullEval.result);
  const full = comparePaired(before, after);
  const score = scoreOf(fullEval.result);
  const tally = `fixed ${full.fixed.length}, broken ${full.broken.length}`;
  const accepted = (reason: string, confirm?: SampleComparison): BatchTest => ({
    verdict: "accepted",
    candidate,
    kept,
    accuracy: fullEval.result.accuracy,
    reason,
    full,
    confirm,
    score,
  });
  const rejected = (reason: string, confirm?: SampleComparison): BatchTest => ({
    verdict: "rejected",
    reason,
    full,
    confirm,
    score,
  });
  if (full.fixed.length <= full.broken.length) return rejected(`full batch: ${tally}`);
  if (isAccepted(full, evolve.alpha))
    return accepted(`${tally}, ${formatPValue(full.pValue)}, below alpha ${evolve.alpha}`);
  if (evolve.confirmSamples === 0)
    return rejected(
      `full batch: ${tally}, one-sided McNemar ${formatPValue(full.pValue)} (needs < ${evolve.alpha})`,
    );
  // Too few tasks flipped for a per-task test: re-draw them, and test draw by draw. Meanwhile the
  // refiner prepares the next diagnosis, should the candidate be accepted (not waited for: the
  // next diagnosis joins its calls through the call cache).
  context.background(() =>
    prefetchDiagnosis({
      context,
      stage: `${scope}/${stage}-prefetch-diagnosis`,
      batch,
      records: fullEval.records,
      candidate,
    }),
  );
  const confirm = await confirmDiscordant({
    context,
    index,
    stage: `${scope}/${stage}`,
    batch,
    full,
    before,
    after,
    parent: options.parent,
    candidate,
    samples: evolve.confirmSamples,
  });
  const draws = `over ${confirm.pairs} draws of the flipped tasks: fixed ${confirm.fixed}, broken ${confirm.broken}, ${formatPValue(confirm.pValue)}`;
  if (confirm.fixed > confirm.broken && confirm.pValue < evolve.alpha)
    return accepted(`${tally}; ${draws}, below alpha ${evolve.alpha}`, confirm);
  return rejected(`full batch: ${tally}; ${draws} (needs < ${evolve.alpha})`, confirm);
}
