import type { Task } from "../../config/task-schema.js";
import type { DiagnosisReport } from "../../diagnose/diagnose-batch.js";
import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import type { RolloutRecord } from "../../eval/types.js";
import type { LoadedHarness } from "../../harness/types.js";
import type { RefinementRecord } from "../../refine/refinement-record.js";
import {
  compareSamples,
  type Draw,
  type PairedComparison,
  type PassMap,
  type SampleComparison,
  type SampleOutcomes,
} from "../paired-test.js";
import type { Evaluation, RunContext } from "../run-context.js";
import type { StagePort } from "../stage-port.js";
import { stageSchemas } from "../stage-schemas.js";

/** What `refine` is asked (src/refine's own options). */
export type RefineRequest = Parameters<StagePort["refine"]>[0];

/**
 * The journaled work of an ecdysis iteration, one stage each (`stage` names it in the journal).
 * `plainSteps` does each in the plain order; the speed tricks (src/evolve/speed) wrap these
 * steps and only start work early, so the results are the same with or without them.
 */
export interface IterationSteps {
  /** A harness's own draws on some tasks: the batch, cheap and full validation runs. */
  evaluate(step: {
    stage: string;
    tasks: Task[];
    harness: LoadedHarness;
    label: string;
    onRecord?: (record: RolloutRecord) => void;
  }): Promise<Evaluation>;
  /**
   * Cross-instance diagnosis of a batch. `followedBy` says which refinement will follow should
   * the patterns that pass the support test survive classification (a hint; see refine-ahead).
   */
  diagnose(step: {
    stage: string;
    request: Parameters<StagePort["diagnose"]>[0];
    followedBy?: {
      stage: string;
      request: Omit<RefineRequest, "patterns">;
      /** The patterns that refinement takes, of the diagnosed ones (see refine-ahead). */
      select: (patterns: readonly FailurePattern[]) => FailurePattern[];
    };
  }): Promise<DiagnosisReport>;
  /** Collaborative refinement of some patterns. */
  refine(step: { stage: string; request: RefineRequest }): Promise<RefinementRecord>;
  /** The flipped tasks of a full batch re-drawn under both harnesses, paired draw by draw. */
  confirm(step: ConfirmStep): Promise<SampleComparison>;
}

/** What `confirm` re-draws: the flips of `full`, the parent's and the candidate's batch runs. */
export interface ConfirmStep {
  /** The full-batch stage this confirms (its re-draws are `<stage>-confirm-parent|candidate`). */
  stage: string;
  index: number;
  batch: Task[];
  full: PairedComparison;
  before: PassMap;
  parent: LoadedHarness;
  candidate: LoadedHarness;
  /** The parent's batch run (`before` is its pass map): its draws are the flips' first draws. */
  parentRun: Evaluation;
  /** The candidate's full-batch run (`full` compares it with `before`). */
  candidateRun: Evaluation;
}

/** The steps in the plain order: each one journal stage over the run's stages and evaluation. */
export function plainSteps(context: RunContext): IterationSteps {
  return {
    evaluate: ({ stage, tasks, harness, label, onRecord }) =>
      context.stage(
        stage,
        () => context.evaluate({ tasks, harness, label, onRecord }),
        stageSchemas.evaluation,
      ),
    diagnose: ({ stage, request }) =>
      context.stage(stage, () => context.stages.diagnose(request), stageSchemas.diagnosis),
    refine: ({ stage, request }) =>
      context.stage(stage, () => context.stages.refine(request), stageSchemas.refinement),
    confirm: (step) => confirmFlips(context, step),
  };
}

/**
 * Re-draws every discordant task of the full-batch comparison `confirmSamples` more times under
 * the parent and under the candidate (same sample indices, so the same request seeds), and pairs
 * the draws — the batch runs' own and the re-draws — draw by draw, an identical repeat counted
 * once (`compareSamples`). Both runs go through the rollout cache, so a resumed run pays nothing.
 */
async function confirmFlips(context: RunContext, step: ConfirmStep): Promise<SampleComparison> {
  const discordant = new Set([...step.full.fixed, ...step.full.broken]);
  const tasks = step.batch.filter((task) => discordant.has(task.id));
  const run = (harness: LoadedHarness, side: string) =>
    context.stage(
      `${step.stage}-confirm-${side}`,
      () =>
        context.evaluate({
          tasks,
          harness,
          samples: context.config.evolve.ecdysis.confirmSamples,
          // The draws after the batch's own: the same indices diagnosis re-sampled failing tasks
          // at, so the parent's draws of the tasks it failed are already in the cache.
          firstSample: context.config.samples,
          label: `iteration ${step.index}: confirming flips (${side})`,
        }),
      stageSchemas.evaluation,
    );
  const [parentRun, candidateRun] = await Promise.all([
    run(step.parent, "parent"),
    run(step.candidate, "candidate"),
  ]);
  return compareSamples(
    outcomes([...step.parentRun.records, ...parentRun.records], discordant),
    outcomes([...step.candidateRun.records, ...candidateRun.records], discordant),
  );
}

/** The draws of the given tasks, by task and sample index (the batch's own draws first). */
function outcomes(records: RolloutRecord[], taskIds: ReadonlySet<string>): SampleOutcomes {
  const byTask = new Map<string, Map<number, Draw>>();
  for (const record of records) {
    if (!taskIds.has(record.taskId)) continue;
    const draws = byTask.get(record.taskId) ?? new Map<number, Draw>();
    const said = JSON.stringify([record.output, record.answer ?? null]);
    draws.set(record.sampleIndex, { pass: record.verdict.pass, said });
    byTask.set(record.taskId, draws);
  }
  return byTask;
}
