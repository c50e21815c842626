import type { Task } from "../../config/task-schema.js";
import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { typedSetting } from "../../harness/index.js";
import type { LoadedHarness, PlannedEdit } from "../../harness/types.js";
import {
  deterministicAgent,
  notRedrawnDecision,
  promising,
  significant,
  significantOverDraws,
  type TargetedEvidence,
  verdictPower,
  worthRedrawing,
} from "../acceptance.js";
import { comparePaired, type PairedComparison, type PassMap } from "../paired-test.js";
import { failingDifferently, passMapOf, restrictPassMap, scoreOf } from "../records.js";
import type { Evaluation, RunContext } from "../run-context.js";
import type { IterationScope, RandomStreams } from "../run-scope.js";
import { fullBatchAhead } from "../speed/full-ahead.js";
import type { CandidateProposal } from "../strategy.js";
import type { Candidate, ValidationResult, ValidationStage } from "../validation.js";
import { ablateRejected } from "./ablate.js";
import { type ItemNames, itemNamesOf } from "./attribution.js";
import { cheapSubset, without } from "./cheap-subset.js";
import { affordable, redrawCost } from "./ecdysis-budget.js";
import { pruneChanges, pruningAhead } from "./prune.js";
import type { IterationSteps } from "./steps.js";

/** What an ecdysis proposal carries for its own validation and memory (`Proposal.data`). */
export interface EcdysisData {
  /** The systematic patterns its edits address. */
  addressed: FailurePattern[];
  /** A repair round (1 when `repairRound` is absent): a follow-up of the rejected candidate. */
  repair?: true;
  repairRound?: number;
  /** An observe-more refusal whose next batch is fresh samples of tasks already observed. */
  freshSamples?: true;
}

/** The steps of an ecdysis validation, as their stages name them. */
export const ecdysisStep = {
  cheap: "cheap validation",
  credit: "credit per edit",
  pruning: "pruning",
  full: "full batch",
  redraw: "re-drawn flips",
  ablation: "ablation",
} as const;

/**
 * Ecdysis's random streams (run-scope.ts): each iteration's batch and cheap validation's
 * regression sample, at the sub-seed paths they were first given. A step that draws adds its
 * stream here, beside the steps.
 */
export const ecdysisStreams = {
  batch: (iteration: number) => [iteration, 1],
  "regression-sample": (iteration: number) => [iteration, 2],
} satisfies RandomStreams;
/** The name of one of Ecdysis's random streams. */
export type EcdysisStream = keyof typeof ecdysisStreams;
/** An ecdysis iteration's journal stages and random streams. */
export type EcdysisScope = IterationScope<EcdysisStream>;

/** One validation under way: what it compares against, and the stages it has recorded. */
export interface Validation {
  context: RunContext;
  steps: IterationSteps;
  /** Its journal stages (`iteration-N/…`, a repair round's `iteration-N/repair/…`) and streams. */
  scope: EcdysisScope;
  batch: Task[];
  /** Pass/fail per batch task under the parent. */
  before: PassMap;
  /** The parent's batch run (`before` is its pass map). */
  parentRun: Evaluation;
  parent: LoadedHarness;
  addressed: FailurePattern[];
  /** The applied edits that name one train task's item, with the batch tasks they name. */
  itemNames: ItemNames;
  stages: ValidationStage[];
  candidates: Map<string, Candidate>;
}

/**
 * Validates an ecdysis candidate, one step after another, each recording its stage: the cheap
 * subset (failing members of the addressed patterns + a stratified regression sample of passing
 * tasks) → per-change attribution and pruning → worth the full batch only when promising → the
 * full batch, the flips re-drawn when too few for the paired test → a rejected bundle's changes
 * tried one by one (ablation), the helping ones validated again. `decide` (acceptance.ts) reads
 * the stages; a repair of what a rejected candidate broke is the strategy's next proposal.
 */
export async function validateEcdysis(options: {
  context: RunContext;
  steps: IterationSteps;
  proposal: CandidateProposal<EcdysisData>;
  scope: EcdysisScope;
}): Promise<ValidationResult> {
  const { context, proposal, scope } = options;
  const { seen } = proposal;
  const validation: Validation = {
    context,
    steps: options.steps,
    scope,
    batch: seen.batch.tasks,
    before: passMapOf(seen.batch.run.result),
    parentRun: seen.batch.run,
    parent: seen.parent,
    addressed: proposal.data.addressed,
    itemNames: itemNamesOf({
      applied: proposal.guarded.applied,
      flags: proposal.guarded.labelFlags,
      batch: seen.batch.tasks,
    }),
    stages: [],
    candidates: new Map([
      [proposal.candidate.hash, { harness: proposal.candidate, kept: proposal.guarded.applied }],
    ]),
  };
  await validateCandidate(validation, proposal.candidate, proposal.guarded.applied);
  return { stages: validation.stages, candidates: validation.candidates };
}

async function validateCandidate(
  validation: Validation,
  candidate: LoadedHarness,
  applied: PlannedEdit[],
): Promise<void> {
  const cheapTasks = cheapSubset(validation);
  const runCheap = (harness: LoadedHarness, stage: string) =>
    cheapComparison(validation, { harness, stage, tasks: cheapTasks });
  const cheap = await runCheap(candidate, "validate-cheap");
  validation.stages.push({
    step: ecdysisStep.cheap,
    role: "screen",
    candidateHash: candidate.hash,
    comparison: cheap,
    decision: promising(cheap),
  });
  // With the speed tricks on, a promising candidate's other batch tasks run during pruning —
  // unless pruning will replace it.
  const { context, scope } = validation;
  const rest = without(validation.batch, cheapTasks);
  const ahead =
    context.speedups && promising(cheap).accepted && !pruningAhead(validation, applied, cheap)
      ? fullBatchAhead(context, {
          stage: scope.key("validate-full"),
          tasks: rest,
          harness: candidate,
          label: `iteration ${scope.index}: full batch`,
        })
      : undefined;
  // Credit and pruning may not spend what the verdict on this candidate still needs (its rest).
  const pruned = await pruneChanges({
    validation,
    candidate,
    kept: applied,
    cheap,
    runCheap,
    reserve: rest.length,
  });
  if (pruned.terminal || !promising(pruned.cheap).accepted) return;
  // The full batch waits for its own draws started ahead (never drawn twice).
  if (pruned.candidate.hash === candidate.hash) await ahead;
  const first = await testOnBatch(validation, pruned.candidate, "validate-full");
  if (first.accepted) return;
  // Ablation runs each change alone on the cheap subset, then the helping ones on the batch:
  // not started when the budget left cannot carry it through.
  const ablation = pruned.kept.length * cheapTasks.length + validation.batch.length;
  if (!affordable(validation.context, ablation)) return;
  const rebuilt = await ablateRejected({
    validation,
    kept: pruned.kept,
    cheap: pruned.cheap,
    full: first.full,
  });
  if (rebuilt) await testOnBatch(validation, rebuilt, "validate-full-ablated");
}

async function cheapComparison(
  validation: Validation,
  run: { harness: LoadedHarness; stage: string; tasks: Task[] },
): Promise<PairedComparison> {
  const evaluation = await validation.steps.evaluate({
    stage: validation.scope.key(run.stage),
    tasks: run.tasks,
    harness: run.harness,
    label: `iteration ${validation.scope.index}: ${run.stage}`,
  });
  const ids = new Set(run.tasks.map((task) => task.id));
  const comparison = comparePaired(
    restrictPassMap(validation.before, ids),
    passMapOf(evaluation.result),
  );
  const shifted = failingDifferently({
    before: validation.parentRun.records.filter((record) => ids.has(record.taskId)),
    after: evaluation.records,
    tasks: run.tasks,
    stepLimits: {
      before: validation.parent.config?.agent_loop.max_steps,
      after: run.harness.config?.agent_loop.max_steps,
    },
  });
  return { ...comparison, shifted };
}

/**
 * The full batch, then (when too few tasks flipped for a per-task test) the draw-by-draw test —
 * unless the agent model is deterministic: its re-draws would repeat the run, so the per-task
 * test decides and the full stage's reason says why there was no re-draw.
 */
async function testOnBatch(
  validation: Validation,
  candidate: LoadedHarness,
  stage: string,
): Promise<{ accepted: boolean; full: PairedComparison }> {
  const { context, batch, before, scope } = validation;
  const { index } = scope;
  const { alpha, confirmSamples } = context.config.evolve.ecdysis;
  const run = await validation.steps.evaluate({
    stage: scope.key(stage),
    tasks: batch,
    harness: candidate,
    label: `iteration ${index}: full batch`,
  });
  const full = comparePaired(before, passMapOf(run.result));
  const targeted = namedEvidence(validation, candidate.hash);
  const perTask = significant(
    alpha,
    context.config.evolve.ecdysis.targetedTest ? targeted : undefined,
  )(full);
  const redraw =
    !perTask.accepted &&
    worthRedrawing(full) &&
    confirmSamples > 0 &&
    affordable(context, redrawCost(full, confirmSamples), batch.length);
  const notRedrawn = redraw ? deterministicAgent(context.config) : undefined;
  const decision = notRedrawn ? notRedrawnDecision(perTask, notRedrawn) : perTask;
  validation.stages.push({
    step: ecdysisStep.full,
    role: "verdict",
    candidateHash: candidate.hash,
    comparison: full,
    score: scoreOf(run.result),
    figures: verdictPower(full, targeted, alpha),
    decision,
  });
  if (!redraw || notRedrawn) return { accepted: decision.accepted, full };
  const draws = await validation.steps.confirm({
    stage: scope.key(stage),
    index,
    batch,
    full,
    before,
    parent: validation.parent,
    candidate,
    parentRun: validation.parentRun,
    candidateRun: run,
  });
  const confirmed = significantOverDraws(alpha)(full, draws);
  validation.stages.push({
    step: ecdysisStep.redraw,
    role: "verdict",
    candidateHash: candidate.hash,
    draws,
    decision: confirmed,
  });
  return { accepted: confirmed.accepted, full };
}

/**
 * The targeted test's evidence (acceptance.ts `significant`): the failing batch tasks of the
 * patterns the candidate's edits address — after pruning, only those its remaining edits name —
 * named before the candidate ran; a fix must fix as many as make a pattern systematic
 * (`minSupport.tasks`: a text edit could name an item), or one when every edit is a typed
 * setting (`typedSetting`: no item fits in a number, a boolean or an enumerated value).
 */
function namedEvidence(validation: Validation, candidateHash: string): TargetedEvidence {
  const edits = validation.candidates.get(candidateHash)?.kept ?? [];
  const named = new Set(edits.flatMap((edit) => edit.patterns));
  const aimed = validation.addressed.filter(
    (pattern) => named.has(pattern.id) || named.has(pattern.name),
  );
  const patterns = aimed.length > 0 ? aimed : validation.addressed;
  const targets = new Set(
    patterns
      .flatMap((pattern) => pattern.taskIds)
      .filter((taskId) => validation.before.get(taskId) === false),
  );
  const { minSupport } = validation.context.config.evolve.ecdysis;
  return { targets, minFixed: edits.length > 0 && edits.every(typedOnly) ? 1 : minSupport.tasks };
}

/** A `set` of a number, a boolean or an enumerated value: an edit that carries no text. */
function typedOnly({ edit }: PlannedEdit): boolean {
  return edit.kind === "set" && typedSetting(edit.path, edit.value);
}
