import { harnessModules } from "../../config/harness-schema.js";
import type { Task } from "../../config/task-schema.js";
import type { LoadedHarness } from "../../harness/types.js";
import type { RefinementRecord } from "../../refine/refinement-record.js";
import { aboveBest, betterOnMinibatch, noWorseThanParents } from "../acceptance.js";
import { guardRefinement } from "../guard.js";
import { type RememberedProposal, shownToRoles } from "../memory.js";
import { comparePaired } from "../paired-test.js";
import { failingRecords, passMapOf, scoreOf, traceExcerpt } from "../records.js";
import type { Evaluation, RunContext } from "../run-context.js";
import type { IterationScope, StrategyScope } from "../run-scope.js";
import { stageSchemas } from "../stage-schemas.js";
import type { CandidateProposal, LoopState, Observation, Proposal } from "../strategy.js";
import type { ValidationResult, ValidationStage } from "../validation.js";
import { selectComponents } from "./gepa/component-selector.js";
import { minibatchAt, minibatchesPerEpoch } from "./gepa/epoch-sampler.js";
import type { Lineage } from "./gepa/merge.js";
import { averageScore, type InstanceScores, selectParent } from "./gepa/pareto.js";
import type { IterativeStream } from "./iterative.js";
import type { MergeCounters, MergeDraw } from "./iterative-merge.js";

/** A candidate of the Pareto pool: its harness, its full train evaluation, its per-task scores. */
export interface PoolEntry {
  harness: LoadedHarness;
  run: Evaluation;
  scores: InstanceScores;
  /** GEPA's round-robin pointer of this candidate (the next component it updates as a parent). */
  pointer: number;
  /** Its edits from the seed and the pool indices it descends from (the merge proposer's view). */
  lineage: Lineage;
}

/** The iterative baseline's state: GEPA's candidate pool, its best, and the sampler's draw count. */
export interface IterativeState extends LoopState {
  pool: PoolEntry[];
  /** Index of the best candidate (highest mean train score): the harness in force. */
  best: number;
  /** Minibatches drawn so far, skipped ones included (GEPA's iteration counter for its sampler). */
  draws: number;
  withoutImprovement: number;
  /** Hashes of every candidate scored so far (the seed's, every child's minibatch run). */
  scored: string[];
  /** Proposals in a row without a candidate not scored before (`staleProposals` stops the search). */
  withoutNewCandidate: number;
  /** GEPA's merge proposer's counters (iterative-merge.ts). */
  merges: MergeCounters;
}

/** Per-task scores of an evaluation: passes over samples (GEPA's per-instance validation scores). */
export function instanceScores(run: Evaluation): InstanceScores {
  return new Map(
    run.result.tasks.map((task) => [
      task.taskId,
      task.samples > 0 ? task.passes / task.samples : 0,
    ]),
  );
}

/** The harness's components for GEPA's component selector: its modules (a command harness: one). */
function componentsOf(harness: LoadedHarness): string[] {
  return harness.kind === "command" ? ["command"] : [...harnessModules];
}

/**
 * What one proposal drew — its parent in the pool, the parent's pointer after it, its minibatch —
 * carried in the proposal (`Proposal.data`) to its validation and `next`.
 */
export interface Drawn {
  parentIndex: number;
  pointer: number;
  /** The sampler's draw count after this proposal's minibatch. */
  draws: number;
  /** Minibatch task ids as drawn (padding may repeat one), its tasks, and the parent's run on them. */
  ids: string[];
  tasks: Task[];
  parentRun: Evaluation;
  /** A merge proposal (iterative-merge.ts): the other parent, the ancestor, the bar to meet. */
  merge?: MergeDraw;
}

type IterativeScope = IterationScope<IterativeStream>;

/** GEPA's summed minibatch score: per drawn id (padding counts twice), passes over samples. */
function minibatchSum(ids: readonly string[], run: Evaluation): number {
  const scores = instanceScores(run);
  return ids.reduce((sum, id) => sum + (scores.get(id) ?? 0), 0);
}

/**
 * Draws minibatches for the parent until one it does not pass entirely (GEPA's
 * `skip_perfect_score`), at most two epochs' worth; undefined when every one passed.
 */
async function drawMinibatch(options: {
  context: RunContext;
  runScope: StrategyScope<IterativeStream>;
  state: IterativeState;
  scope: IterativeScope;
  parent: IterativeState["pool"][number];
}): Promise<Omit<Drawn, "parentIndex" | "pointer"> | undefined> {
  const { context, runScope, state, scope, parent } = options;
  const size = context.config.evolve.iterative.minibatch;
  const byId = new Map(context.train.map((task) => [task.id, task]));
  const trainIds = context.train.map((task) => task.id);
  const tries = 2 * minibatchesPerEpoch(trainIds.length, size);
  for (let draws = state.draws; draws < state.draws + tries; draws++) {
    const ids = minibatchAt({
      ids: trainIds,
      size,
      draw: draws,
      rngOfEpoch: (epoch) => runScope.rng("epoch", epoch),
    });
    const tasks = [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    // The parent's own rollouts on these tasks: replayed from the call cache after its full evaluation.
    const parentRun = await scope.stage(
      `parent-minibatch-${draws + 1}`,
      () =>
        context.evaluate({
          tasks,
          harness: parent.harness,
          label: `iteration ${scope.index}: minibatch`,
        }),
      stageSchemas.evaluation,
    );
    if (minibatchSum(ids, parentRun) < ids.length)
      return { draws: draws + 1, ids, tasks, parentRun };
  }
  return undefined;
}

/** Keeps the edits of the selected components; says why when none is left. */
function inSelectedComponents(refinement: RefinementRecord, components: string[]) {
  const kept = refinement.edits.filter((edit) => components.includes(edit.module));
  const dropped = refinement.edits.length - kept.length;
  const why =
    dropped > 0 && kept.length === 0
      ? `every edit (${dropped}) changes another module than ${components.join(", ")}, the component the round-robin selector gave this reflection`
      : undefined;
  return { refinement: { ...refinement, edits: kept }, why };
}

/** Rejections made on this parent (GEPA's reflection keeps none; ours is scoped to the harness). */
function memoryOn(memory: readonly RememberedProposal[], parentHash: string) {
  return shownToRoles(
    memory.filter((proposal) => proposal.parentHash === parentHash),
    parentHash,
  );
}

/**
 * The reflection call's sampling: `evolve.iterative.reflectionTemperature` (GEPA's reflection LM
 * samples warm) and a seed of its own per iteration, drawn from the run's stream — a fresh sample
 * each call, never a replay of an earlier one from the call cache, and the same on a re-run.
 */
function reflectionSampling(context: RunContext, scope: IterativeScope) {
  return {
    temperature: context.config.evolve.iterative.reflectionTemperature,
    seed: Math.floor(scope.rng("reflection").next() * 2 ** 31),
  };
}

/** One GEPA proposal: parent from the Pareto front, a minibatch it fails on, a reflection on one component. */
export async function proposeFromMinibatch(options: {
  context: RunContext;
  runScope: StrategyScope<IterativeStream>;
  state: IterativeState;
  scope: IterativeScope;
}): Promise<Proposal<Drawn>> {
  const { context, state, scope } = options;
  const parentIndex = selectParent(
    state.pool.map((entry) => entry.scores),
    scope.rng("parent"),
  );
  const parent = state.pool[parentIndex];
  const seen: Observation = {
    index: scope.index,
    parent: parent.harness,
    batch: { tasks: context.train, run: parent.run },
    traces: [],
  };
  const drawn =
    failingRecords(parent.run.result, parent.run.records).length === 0
      ? undefined
      : await drawMinibatch({ ...options, parent });
  if (!drawn)
    return { kind: "stop", seen, stoppedBy: "no-failures", reason: "every train task passed" };
  const selected = selectComponents({
    selector: context.config.evolve.iterative.components,
    components: componentsOf(parent.harness),
    pointer: parent.pointer,
  });
  const data: Drawn = { ...drawn, parentIndex, pointer: selected.pointer };
  seen.traces = drawn.parentRun.records.map(traceExcerpt);
  const failures = failingRecords(drawn.parentRun.result, drawn.parentRun.records);
  // GEPA's reflective dataset: the whole minibatch, its successes as well as its failures.
  const refinement = await scope.stage(
    "reflect",
    () =>
      context.stages.reflect({
        records: drawn.parentRun.records,
        sampling: reflectionSampling(context, scope),
        tasks: drawn.tasks,
        harness: parent.harness,
        refiner: context.models.refiner,
        rejected: memoryOn(state.memory, parent.harness.hash),
        editable: context.guard.editable,
        ...(selected.components.length === 1 ? { module: selected.components[0] } : {}),
      }),
    stageSchemas.refinement,
  );
  const scoped = inSelectedComponents(refinement, selected.components);
  const guarded = guardRefinement({
    harness: parent.harness,
    refinement: scoped.refinement,
    guard: context.guard,
  });
  const targets = failures.map((record) => record.taskId);
  const base = { seen, refinement, guarded, targets, data };
  if (!guarded.candidate)
    return { ...base, kind: "refused", reason: scoped.why ?? guarded.reason ?? "no candidate" };
  return { ...base, kind: "candidate", candidate: guarded.candidate };
}

/**
 * The child on the parent's minibatch (GEPA's `StrictImprovementAcceptance` on the summed
 * scores), then — only when strictly better there — on the full train split, against the best.
 */
export async function validateOnMinibatch(options: {
  context: RunContext;
  proposal: CandidateProposal<Drawn>;
  state: IterativeState;
  scope: IterationScope;
}): Promise<ValidationResult> {
  const { context, proposal, state, scope } = options;
  const { candidate, seen, data: drawn } = proposal;
  const childRun = await scope.stage(
    "minibatch",
    () =>
      context.evaluate({
        tasks: drawn.tasks,
        harness: candidate,
        label: `iteration ${seen.index}: minibatch`,
      }),
    stageSchemas.evaluation,
  );
  const cheap: ValidationStage = {
    step: "minibatch",
    role: "screen",
    candidateHash: candidate.hash,
    comparison: comparePaired(passMapOf(drawn.parentRun.result), passMapOf(childRun.result)),
    decision: drawn.merge
      ? noWorseThanParents(drawn.merge.baseline, minibatchSum(drawn.ids, childRun))
      : betterOnMinibatch(
          minibatchSum(drawn.ids, drawn.parentRun),
          minibatchSum(drawn.ids, childRun),
        ),
  };
  const kept = proposal.guarded.applied;
  if (!cheap.decision.accepted)
    return {
      stages: [cheap],
      candidates: new Map([[candidate.hash, { harness: candidate, kept }]]),
    };
  const run = await scope.stage(
    "evaluate",
    () =>
      context.evaluate({
        tasks: context.train,
        harness: candidate,
        label: `iteration ${seen.index}: train`,
      }),
    stageSchemas.evaluation,
  );
  const best = state.pool[state.best];
  const full: ValidationStage = {
    step: "train split",
    role: "verdict",
    candidateHash: candidate.hash,
    comparison: comparePaired(passMapOf(best.run.result), passMapOf(run.result)),
    score: scoreOf(run.result),
    decision: aboveBest(averageScore(best.scores), averageScore(instanceScores(run))),
  };
  return {
    stages: [cheap, full],
    candidates: new Map([[candidate.hash, { harness: candidate, kept, run }]]),
  };
}
