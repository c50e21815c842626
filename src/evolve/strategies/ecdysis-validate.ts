import type { Task } from "../../config/task-schema.js";
import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import type { LoadedHarness, PlannedEdit } from "../../harness/types.js";
import {
  decide,
  deterministicAgent,
  notRedrawnDecision,
  promising,
  significant,
  significantOverDraws,
  worthRedrawing,
} from "../acceptance.js";
import { type Candidate, type Evidence, type EvidenceStage, firstStage } from "../evidence.js";
import { comparePaired, type PairedComparison, type PassMap } from "../paired-test.js";
import { failingDifferently, passMapOf, restrictPassMap, scoreOf } from "../records.js";
import type { Evaluation, RunContext } from "../run-context.js";
import type { CandidateProposal } from "../strategy.js";
import { stratifiedSample } from "../stratified-sample.js";
import { ablateRejected } from "./ablate.js";
import { pruneChanges } from "./prune.js";
import { repairRegressions } from "./repair.js";
import type { IterationSteps } from "./steps.js";

/** One validation under way: what it compares against, and the evidence it has gathered. */
export interface Validation {
  context: RunContext;
  steps: IterationSteps;
  index: number;
  /** Prefix of its journal stages (`iteration-N`, or `iteration-N/repair`). */
  scope: string;
  batch: Task[];
  /** Pass/fail per batch task under the parent. */
  before: PassMap;
  /** The parent's batch run (`before` is its pass map). */
  parentRun: Evaluation;
  parent: LoadedHarness;
  addressed: FailurePattern[];
  stages: EvidenceStage[];
  candidates: Map<string, Candidate>;
}

/**
 * Validates an ecdysis candidate: the cheap subset (failing members of the addressed patterns +
 * a stratified regression sample of passing tasks) → per-change attribution and pruning → worth
 * the full batch only when promising → the full batch, the flips re-drawn when too few for the
 * paired test → a rejected bundle's changes tried one by one (ablation) → one repair round for
 * what a rejected candidate broke. Returns the evidence; `decide` (acceptance.ts) reads it.
 */
export async function validateEcdysis(options: {
  context: RunContext;
  steps: IterationSteps;
  proposal: CandidateProposal;
  /** Set for a repair round's own validation (it has no repair round of its own). */
  scope?: string;
}): Promise<Evidence> {
  const { context, proposal } = options;
  const { seen } = proposal;
  const validation: Validation = {
    context,
    steps: options.steps,
    index: seen.index,
    scope: options.scope ?? `iteration-${seen.index}`,
    batch: seen.batch.tasks,
    before: passMapOf(seen.batch.run.result),
    parentRun: seen.batch.run,
    parent: seen.parent,
    addressed: proposal.addressed,
    stages: [],
    candidates: new Map([
      [proposal.candidate.hash, { harness: proposal.candidate, kept: proposal.guarded.applied }],
    ]),
  };
  await validateCandidate(validation, proposal.candidate, proposal.guarded.applied);
  const repairable =
    options.scope === undefined &&
    context.config.evolve.repairRegressions &&
    !decide(validation.stages).accepted &&
    regressions(validation.stages).length + exposed(validation.stages).length > 0;
  if (repairable) await repairRegressions({ validation, proposal });
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
    stage: "cheap",
    candidateHash: candidate.hash,
    comparison: cheap,
    decision: promising(cheap),
  });
  const pruned = await pruneChanges({ validation, candidate, kept: applied, cheap, runCheap });
  if (pruned.terminal || !promising(pruned.cheap).accepted) return;
  const first = await testOnBatch(validation, pruned.candidate, "validate-full");
  if (first.accepted) return;
  const rebuilt = await ablateRejected({
    validation,
    kept: pruned.kept,
    cheap: pruned.cheap,
    full: first.full,
  });
  if (rebuilt) await testOnBatch(validation, rebuilt, "validate-full-ablated");
}

function cheapSubset(validation: Validation): Task[] {
  const { batch, before, context } = validation;
  const failingMembers = new Set(
    validation.addressed
      .flatMap((pattern) => pattern.taskIds)
      .filter((taskId) => before.get(taskId) === false),
  );
  const regression = new Set(
    stratifiedSample({
      items: batch.filter((task) => before.get(task.id) === true),
      size: context.config.evolve.regressionSample,
      category: (task) => task.category,
      rng: context.rng(validation.index, 2),
    }).map((task) => task.id),
  );
  return batch.filter((task) => failingMembers.has(task.id) || regression.has(task.id));
}

async function cheapComparison(
  validation: Validation,
  run: { harness: LoadedHarness; stage: string; tasks: Task[] },
): Promise<PairedComparison> {
  const evaluation = await validation.steps.evaluate({
    stage: `${validation.scope}/${run.stage}`,
    tasks: run.tasks,
    harness: run.harness,
    label: `iteration ${validation.index}: ${run.stage}`,
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
 * test decides and the full stage says why there was no re-draw (`notRedrawn`).
 */
async function testOnBatch(
  validation: Validation,
  candidate: LoadedHarness,
  stage: string,
): Promise<{ accepted: boolean; full: PairedComparison }> {
  const { context, index, batch, before, scope } = validation;
  const { alpha, confirmSamples } = context.config.evolve;
  const run = await validation.steps.evaluate({
    stage: `${scope}/${stage}`,
    tasks: batch,
    harness: candidate,
    label: `iteration ${index}: full batch`,
  });
  const full = comparePaired(before, passMapOf(run.result));
  const perTask = significant(alpha)(full);
  const redraw = !perTask.accepted && worthRedrawing(full) && confirmSamples > 0;
  const notRedrawn = redraw ? deterministicAgent(context.config) : undefined;
  const decision = notRedrawn ? notRedrawnDecision(perTask, notRedrawn) : perTask;
  validation.stages.push({
    stage: "full",
    candidateHash: candidate.hash,
    comparison: full,
    score: scoreOf(run.result),
    decision,
    ...(notRedrawn ? { notRedrawn } : {}),
  });
  if (!redraw || notRedrawn) return { accepted: decision.accepted, full };
  const draws = await validation.steps.confirm({
    stage: `${scope}/${stage}`,
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
    stage: "confirm",
    candidateHash: candidate.hash,
    comparison: draws,
    decision: confirmed,
  });
  return { accepted: confirmed.accepted, full };
}

/**
 * What a rejected candidate exposed, for the follow-up round: the failing targets that fail
 * differently under the candidate as it was last run on the cheap subset (its pruned form, or
 * the bundle when pruning was undone) — the failure that now masks its fix.
 */
export function exposed(stages: readonly EvidenceStage[]): string[] {
  let current: PairedComparison | undefined;
  for (const stage of stages) {
    if (stage.stage === "cheap") current = stage.comparison;
    if (stage.stage === "pruned" && !stage.undone && stage.comparison) current = stage.comparison;
  }
  return current?.shifted ?? [];
}

/**
 * What a rejected candidate broke, for the repair round: the first full batch's broken tasks,
 * else those of the last cheap run (a proposal pruned to nothing broke nothing that counts).
 */
export function regressions(stages: readonly EvidenceStage[]): string[] {
  const full = firstStage(stages, "full");
  if (full) return full.comparison.broken;
  const last = stages.at(-1);
  if (last?.stage === "cheap" || last?.stage === "pruned") return last.comparison?.broken ?? [];
  return [];
}
