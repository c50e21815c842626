import type { Task } from "../../config/task-schema.js";
import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import type { RolloutRecord } from "../../eval/types.js";
import type { LoadedHarness } from "../../harness/types.js";
import type { RefinementRecord } from "../../refine/refinement-record.js";
import { guardRefinement } from "../guard.js";
import { identicalRejected, shownToRoles } from "../memory.js";
import { failingRecords, patternTraces } from "../records.js";
import type { RunContext } from "../run-context.js";
import type { LoopState, Observation, Proposal } from "../strategy.js";
import { stratifiedSample } from "../stratified-sample.js";
import { attemptLimit } from "./ecdysis-budget.js";
import { narrowPatterns, typedSettingsFor } from "./ecdysis-narrow.js";
import { attemptableHere, refinedPatterns } from "./ecdysis-select.js";
import { stopOrObserveMore, stopWithout } from "./ecdysis-stop.js";
import type { EcdysisData, EcdysisScope } from "./ecdysis-validate.js";
import type { IterationSteps, RefineRequest } from "./steps.js";

/**
 * An ecdysis proposal: a stratified train batch under the current harness → cross-instance
 * diagnosis (src/diagnose: where a failure pattern is born) → collaborative refinement of the
 * systematic patterns that still have attempts left, narrow riders beside them (ecdysis-select.ts)
 * → the guards. Stops when the batch has no
 * failure or no systematic pattern is left to attempt; a proposal identical to one rejected on
 * this harness is refused without validation.
 */
export async function proposeEcdysis(options: {
  context: RunContext;
  steps: IterationSteps;
  state: ObservingState;
  scope: EcdysisScope;
}): Promise<Proposal<EcdysisData>> {
  const { context, steps, state, scope } = options;
  const evolve = context.config.evolve.ecdysis;
  const harness = state.harness;
  const seen = await observeBatch(options);
  const { tasks, run } = seen.batch;
  if (failingRecords(run.result, run.records).length === 0)
    return stopOrObserveMore(options, seen, {
      kind: "stop",
      seen,
      stoppedBy: "no-failures",
      reason: "every task of the batch passed",
    });
  const maxAttempts = attemptLimit(context, tasks.length);
  const attemptable = attemptableHere({ context, state, maxAttempts, batchSize: tasks.length });
  const select = refinedPatterns({ context, state, attemptable, batchSize: tasks.length });
  const refine = {
    harness,
    refiner: context.models.refiner,
    rejected: shownToRoles(state.memory, harness.hash),
    skepticRounds: evolve.skepticRounds,
    editable: context.guard.editable,
  };
  seen.diagnosis = await steps.diagnose({
    stage: scope.key("diagnose"),
    request: diagnoseRequest({
      context,
      index: scope.index,
      batch: tasks,
      records: run.records,
      harness,
    }),
    followedBy: { stage: scope.key("refine"), request: refine, select },
  });
  seen.traces = patternTraces(seen.diagnosis.patterns, run.records);
  // Model-specific patterns are reported, never repaired — but for narrow riders.
  const found = seen.diagnosis.patterns.filter((pattern) => pattern.kind === "systematic");
  const patterns = select(seen.diagnosis.patterns);
  if (patterns.length === 0) {
    const stop = stopOrObserveMore(options, seen, stopWithout({ seen, found, state, maxAttempts }));
    return stop.kind === "stop" ? lastResort({ ...options, seen, refine, stop }) : stop;
  }
  const refinement = typedSettingsFor(
    await steps.refine({ stage: scope.key("refine"), request: { ...refine, patterns } }),
    patterns,
    "rider",
  );
  return guarded({ context, state, seen, refinement, systematic: patterns });
}

/**
 * Before a stop with budget left, the narrow patterns with typed settings only (ecdysis-narrow.ts);
 * the stop stands when there are none, or when the roles proposed no typed setting for them.
 */
async function lastResort(options: {
  context: RunContext;
  steps: IterationSteps;
  state: ObservingState;
  scope: EcdysisScope;
  seen: Observation;
  refine: Omit<RefineRequest, "patterns">;
  stop: Extract<Proposal<EcdysisData>, { kind: "stop" }>;
}): Promise<Proposal<EcdysisData>> {
  const { context, state, seen, stop } = options;
  const narrow = narrowPatterns({
    context,
    state,
    patterns: seen.diagnosis?.patterns ?? [],
    batchSize: seen.batch.tasks.length,
    use: "last-resort",
  });
  if (narrow.length === 0) return stop;
  const refinement = typedSettingsFor(
    await options.steps.refine({
      stage: options.scope.key("refine-last-resort"),
      request: { ...options.refine, patterns: narrow },
    }),
    narrow,
    "last-resort",
  );
  const proposal = guarded({ context, state, seen, refinement, systematic: narrow });
  if (
    proposal.kind !== "refused" ||
    refinement.outcome !== "accepted" ||
    refinement.edits.length > 0
  )
    return proposal;
  const names = narrow.map((pattern) => pattern.name).join(", ");
  return {
    ...proposal,
    reason: `no typed setting proposed for ${names} (last resort: text edits dropped)`,
  };
}

/** What proposing reads of Ecdysis's state: the loop's, and what it observed on this harness. */
export interface ObservingState extends LoopState {
  /** Train task ids observed since the harness in force was accepted (the seed: since the start). */
  observed?: string[];
  /** The previous proposal asked to observe more: the next batch prefers tasks not yet observed. */
  observeFresh?: boolean;
  /**
   * Rounds of fresh samples drawn so far: every evaluation of an iteration runs at sample indices
   * `sampleRound × sampleRoundStride` on (ecdysis.ts), so a round re-observes tasks already seen
   * with fresh samples — new request seeds, never cache replays — paired across the harnesses.
   */
  sampleRound?: number;
  /**
   * A round of fresh samples has run on the harness in force (reset when an edit is accepted):
   * a second round is not drawn, since the first found nothing new to fix on it — on the bench
   * they never did (src/evolve/README.md), and a command harness's agent may be deterministic,
   * where every further round would only repeat the first.
   */
  freshRoundDone?: boolean;
}

/** A stratified train batch (the iteration's own seeded draw) under the current harness. */
async function observeBatch(options: {
  context: RunContext;
  steps: IterationSteps;
  state: ObservingState;
  scope: EcdysisScope;
}): Promise<Observation> {
  const { context, state, scope } = options;
  const { index } = scope;
  const size = context.config.evolve.ecdysis.batchSize;
  const observed = new Set(state.observeFresh ? (state.observed ?? []) : []);
  const unseen = context.train.filter((task) => !observed.has(task.id));
  // After an observe-more refusal, tasks not yet observed on this harness come first.
  const items = unseen.length >= Math.min(size, context.train.length) ? unseen : context.train;
  const tasks = stratifiedSample({
    items,
    size,
    category: (task) => task.category,
    rng: scope.rng("batch"),
  });
  const run = await options.steps.evaluate({
    stage: scope.key("batch"),
    tasks,
    harness: state.harness,
    label: `iteration ${index}: batch`,
  });
  return { index, parent: state.harness, batch: { tasks, run }, traces: [] };
}

/** The refinement through the guards, as a proposal: a candidate, or why there is none. */
function guarded(options: {
  context: RunContext;
  state: LoopState;
  seen: Observation;
  refinement: RefinementRecord;
  systematic: FailurePattern[];
}): Proposal<EcdysisData> {
  const { context, state, seen, refinement } = options;
  const addressed = addressedPatterns(options.systematic, refinement);
  const targets = [...new Set(addressed.flatMap((pattern) => [pattern.id, pattern.name]))];
  const edits = guardRefinement({ harness: seen.parent, refinement, guard: context.guard });
  const base = { seen, refinement, guarded: edits, targets, data: { addressed } };
  if (!edits.candidate) return { ...base, kind: "refused", reason: edits.reason ?? "no candidate" };
  const same = identicalRejected(edits.applied, state.memory, seen.parent.hash);
  if (same)
    return {
      ...base,
      kind: "refused",
      reason: `identical to a rejected proposal (${same.reason}); not validated again`,
    };
  return { ...base, kind: "candidate", candidate: edits.candidate };
}

/** The systematic patterns the edits name (all of them when the edits name none). */
function addressedPatterns(
  systematic: FailurePattern[],
  refinement: RefinementRecord,
): FailurePattern[] {
  const named = new Set(refinement.edits.flatMap((edit) => edit.patterns));
  const addressed = systematic.filter(
    (pattern) => named.has(pattern.id) || named.has(pattern.name),
  );
  return addressed.length > 0 ? addressed : systematic;
}

function tasksOf(records: RolloutRecord[], tasks: Task[]): Task[] {
  const ids = new Set(records.map((record) => record.taskId));
  return tasks.filter((task) => ids.has(task.id));
}

/** Diagnosis of a batch, with re-samples of failing members and (configured) probe-model runs. */
function diagnoseRequest(options: {
  context: RunContext;
  index: number;
  batch: Task[];
  records: RolloutRecord[];
  harness: LoadedHarness;
}) {
  const { context, index, batch, harness } = options;
  const { config, models } = context;
  const evolve = config.evolve.ecdysis;
  return {
    records: options.records,
    tasks: batch,
    refiner: models.refiner,
    minSupport: evolve.minSupport,
    resamples: evolve.resamples,
    // A command harness's own model runs at a temperature Ecdysis does not set: re-sample it.
    agentTemperature: config.harness.kind === "builtin" ? config.model.temperature : undefined,
    stepLimit: harness.config?.agent_loop.max_steps,
    resample:
      evolve.resamples > 0
        ? async (records: RolloutRecord[], k: number) =>
            (
              await context.evaluate({
                tasks: tasksOf(records, batch),
                harness,
                samples: k,
                firstSample: config.samples,
                label: `iteration ${index}: re-sampling failures`,
              })
            ).records
        : undefined,
    probe: models.probe
      ? async (records: RolloutRecord[]) =>
          (
            await context.evaluate({
              tasks: tasksOf(records, batch),
              harness,
              provider: "probe",
              label: `iteration ${index}: probe`,
            })
          ).records
      : undefined,
  };
}
