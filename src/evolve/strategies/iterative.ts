import type { RolloutRecord } from "../../eval/types.js";
import { refinementSummary } from "../../refine/refinement-record.js";
import { strictImprovement } from "../acceptance.js";
import type { Evidence } from "../evidence.js";
import { guardRefinement } from "../guard.js";
import { rememberedHms, shownToRoles } from "../memory.js";
import { comparePaired } from "../paired-test.js";
import { failingRecords, passMapOf, scoreOf, traceExcerpt } from "../records.js";
import type { Evaluation, RunContext } from "../run-context.js";
import type {
  CandidateProposal,
  LoopState,
  LoopStep,
  Observation,
  Proposal,
  Strategy,
  StrategyRun,
} from "../strategy.js";

/** Options of the iterative baseline. */
export interface IterativeOptions {
  /**
   * Proposals in a row without improvement before it stops. Defaults to `evolve.patience`;
   * unset there too, there is none: the search runs until its budget or maxIterations is spent.
   */
  patience?: number;
}

/** The iterative baseline's state: the current harness's train evaluation, and its patience count. */
interface IterativeState extends LoopState {
  current: Evaluation;
  withoutImprovement: number;
}

/** Seeded rotation over the failing tasks: proposal `index` takes the next `size` failures from a seeded start. */
function pickFailures(
  failures: RolloutRecord[],
  options: { index: number; size: number; start: number },
): RolloutRecord[] {
  const sorted = [...failures].sort((a, b) => a.taskId.localeCompare(b.taskId));
  const count = Math.min(options.size, sorted.length);
  const offset = options.start + (options.index - 1) * options.size;
  return Array.from(
    { length: count },
    (_, position) => sorted[(offset + position) % sorted.length],
  );
}

/**
 * The iterative baseline (per-instance search, as GEPA-style optimisers do): evaluate the full
 * train split; then, serially, show `iterativeMinibatch` failure(s) to one reflector, guard its
 * edits, re-evaluate the candidate on the FULL train split and keep it only when its accuracy is
 * strictly higher (`strictImprovement`). Stops on budget or `maxIterations` proposals — like
 * GEPA, which searches until `max_metric_calls` is spent — or, only when a patience is set,
 * after that many proposals without improvement. Each evaluation uses the same rollout
 * concurrency as ecdysis: what is serial is proposal → full evaluation → next proposal.
 */
export function iterativeStrategy(options: IterativeOptions = {}): Strategy {
  return {
    name: "iterative",
    open: (context) => iterativeRun(context, options),
  };
}

function iterativeRun(context: RunContext, options: IterativeOptions): StrategyRun<IterativeState> {
  const { evolve } = context.config;
  const patience = options.patience ?? evolve.patience ?? Number.POSITIVE_INFINITY;
  const start = Math.floor(context.rng(0, 3).next() * Math.max(1, context.train.length));
  return {
    async start(seed) {
      const current = await context.stage("iterative/evaluate-seed", () =>
        context.evaluate({ tasks: context.train, harness: seed, label: "seed: train" }),
      );
      return { harness: seed, memory: [], current, withoutImprovement: 0 };
    },
    stop: (state) => (state.withoutImprovement >= patience ? "patience" : undefined),
    propose: (state, index) => propose({ context, state, index, start }),
    validate: (proposal, state) => validate(context, proposal, state),
    next: (state, step) => next(state, step),
  };
}

async function propose(options: {
  context: RunContext;
  state: IterativeState;
  index: number;
  start: number;
}): Promise<Proposal> {
  const { context, state, index } = options;
  const { harness, current } = state;
  const seen: Observation = {
    index,
    parent: harness,
    batch: { tasks: context.train, run: current },
    traces: [],
  };
  const failing = failingRecords(current.result, current.records);
  if (failing.length === 0)
    return { kind: "stop", seen, stoppedBy: "no-failures", reason: "every train task passed" };
  const size = context.config.evolve.iterativeMinibatch;
  const failures = pickFailures(failing, { index, size, start: options.start });
  seen.traces = failures.map(traceExcerpt);
  const ids = new Set(failures.map((failure) => failure.taskId));
  const refinement = await context.stage(`iteration-${index}/reflect`, () =>
    context.stages.reflect({
      failures,
      tasks: context.train.filter((task) => ids.has(task.id)),
      harness,
      refiner: context.models.refiner,
      rejected: shownToRoles(state.memory),
      editable: context.guard.editable,
    }),
  );
  const guarded = guardRefinement({ harness, refinement, guard: context.guard });
  const base = { seen, refinement, guarded, addressed: [], targets: [...ids] };
  if (!guarded.candidate)
    return { ...base, kind: "refused", reason: guarded.reason ?? "no candidate" };
  return { ...base, kind: "candidate", candidate: guarded.candidate };
}

/** The candidate on the full train split, judged by `strictImprovement` over the current accuracy. */
async function validate(
  context: RunContext,
  proposal: CandidateProposal,
  state: IterativeState,
): Promise<Evidence> {
  const { candidate, seen } = proposal;
  const run = await context.stage(`iteration-${seen.index}/evaluate`, () =>
    context.evaluate({
      tasks: context.train,
      harness: candidate,
      label: `iteration ${seen.index}: train`,
    }),
  );
  const before = state.current.result.accuracy;
  return {
    stages: [
      {
        stage: "full",
        candidateHash: candidate.hash,
        comparison: comparePaired(passMapOf(state.current.result), passMapOf(run.result)),
        score: scoreOf(run.result),
        decision: strictImprovement("train accuracy")(before, run.result.accuracy),
      },
    ],
    candidates: new Map([
      [candidate.hash, { harness: candidate, kept: proposal.guarded.applied, run }],
    ]),
  };
}

function next(state: IterativeState, step: LoopStep): IterativeState {
  const { proposal, evidence, verdict } = step;
  if (verdict.accepted) {
    const accepted = evidence.candidates.get(verdict.candidateHash);
    if (accepted?.run)
      return { ...state, harness: accepted.harness, current: accepted.run, withoutImprovement: 0 };
  }
  const summary = refinementSummary(proposal.refinement);
  return {
    ...state,
    withoutImprovement: state.withoutImprovement + 1,
    memory: [
      ...state.memory,
      {
        summary,
        hms: rememberedHms(proposal.refinement.hms, summary, proposal.targets),
        reason: verdict.reason,
        patternIds: proposal.targets,
      },
    ],
  };
}
