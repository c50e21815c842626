import { BudgetExhaustedError } from "../errors/budget-error.js";
import type { LoadedHarness } from "../harness/types.js";
import { decide, type Verdict } from "./acceptance.js";
import type { RememberedProposal } from "./memory.js";
import { scoreOf } from "./records.js";
import type { IterationRecord, StopReason } from "./result-schema.js";
import type { RunContext } from "./run-context.js";
import type { IterationScope, StrategyScope } from "./run-scope.js";
import type { LoopState, LoopStep, Observation, Proposal, StrategyRun } from "./strategy.js";
import type { ValidationResult, ValidationStage } from "./validation.js";

/** What a strategy's loop ends with. */
export interface LoopOutcome {
  finalHarness: LoadedHarness;
  iterations: IterationRecord[];
  stoppedBy: StopReason;
  memory: RememberedProposal[];
}

/** Where the loop is: the iteration, and the follow-up of it under way (0: its first proposal). */
interface Turn {
  index: number;
  followUp?: { n: number; purpose: string };
}

const nothing: ValidationResult = { stages: [], candidates: new Map() };

/**
 * The loop, GEPA's shape: `propose(state)` → `validate(proposal)` → `decide(stages)` →
 * `next(state, step)`, one iteration record written per proposal. A strategy may follow a
 * decided proposal up within its iteration (`followUp`: a repair round), recorded under the
 * iteration's index. It stops on the strategy's own reason (a `stop` proposal, patience), after
 * `maxIterations` (follow-ups not counted), or when the budget is spent — checked before each
 * proposal; a proposal the budget cuts short is dropped (the harness accepted so far stays in force).
 */
export async function runLoop(options: {
  run: StrategyRun;
  context: RunContext;
  scope: StrategyScope;
  seed: LoadedHarness;
}): Promise<LoopOutcome> {
  const { run, context } = options;
  const iterations: IterationRecord[] = [];
  let state: LoopState = { harness: options.seed, memory: [] };
  const end = (stoppedBy: StopReason): LoopOutcome => ({
    finalHarness: state.harness,
    iterations,
    stoppedBy,
    memory: state.memory,
  });
  try {
    state = await run.start(options.seed);
    for (let turn: Turn | undefined; ; ) {
      turn = nextTurn(turn, run.followUp?.(state));
      const stop = stopBefore({ run, state, turn, context });
      if (stop) return end(stop);
      const scope = options.scope.iteration(turn.index);
      const proposal = await runnable(await run.propose(state, scope), context);
      if (proposal.kind === "stop") {
        iterations.push(stoppedRecord(proposal, context));
        return end(proposal.stoppedBy);
      }
      const step = await decided({ run, state, proposal, scope });
      iterations.push(decidedRecord(step, context, turn.followUp));
      state = run.next(state, step);
    }
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError)) throw error;
    return end(`budget:${error.resource}`);
  }
}

/** The turn after `previous`: a follow-up of its iteration when the strategy names one, else the next iteration. */
function nextTurn(previous: Turn | undefined, purpose: string | undefined): Turn {
  if (!previous) return { index: 1 };
  if (purpose)
    return { index: previous.index, followUp: { n: (previous.followUp?.n ?? 0) + 1, purpose } };
  return { index: previous.index + 1 };
}

/** A proposal validated (when it has a candidate) and decided. */
async function decided(options: {
  run: StrategyRun;
  state: LoopState;
  proposal: Exclude<Proposal, { kind: "stop" }>;
  scope: IterationScope;
}): Promise<LoopStep> {
  const { run, state, proposal, scope } = options;
  if (proposal.kind !== "candidate")
    return { proposal, validation: nothing, verdict: { accepted: false, reason: proposal.reason } };
  const validation = await run.validate(proposal, state, scope);
  const verdict: Verdict = decide(validation.stages);
  return { proposal, validation, verdict };
}

/**
 * A candidate that cannot run (its edited files no longer parse) is refused before any rollout:
 * its reason — file, line, the parser's words — is the iteration's, and is remembered for the
 * later refinements of its patterns, never scored as a zero.
 */
async function runnable(proposal: Proposal, context: RunContext): Promise<Proposal> {
  if (proposal.kind !== "candidate" || !context.checkCandidate) return proposal;
  const { candidate, ...refined } = proposal;
  const reason = await context.checkCandidate({ candidate, parent: proposal.seen.parent });
  return reason ? { ...refined, kind: "refused", reason } : proposal;
}

function stopBefore(options: {
  run: StrategyRun;
  state: LoopState;
  turn: Turn;
  context: RunContext;
}): StopReason | undefined {
  const { run, state, turn, context } = options;
  const own = run.stop?.(state);
  if (own) return own;
  if (!turn.followUp && turn.index > context.config.evolve.maxIterations) return "max-iterations";
  const exhausted = context.exhausted();
  return exhausted ? `budget:${exhausted.resource}` : undefined;
}

/** The part of an iteration record every proposal has: what it saw. */
function observed(seen: Observation, context: RunContext) {
  const diagnosis = seen.diagnosis && {
    patterns: seen.diagnosis.patterns,
    evidenceCount: seen.diagnosis.evidence.length,
    stats: seen.diagnosis.stats,
  };
  return {
    index: seen.index,
    parentHash: seen.parent.hash,
    batch: {
      taskIds: seen.batch.tasks.map((task) => task.id),
      score: scoreOf(seen.batch.run.result),
    },
    ...(diagnosis ? { diagnosis } : {}),
    elapsedMs: context.elapsedMs(),
    traces: seen.traces,
  };
}

/** The record of a proposal that stopped the loop. */
function stoppedRecord(
  proposal: Extract<Proposal, { kind: "stop" }>,
  context: RunContext,
): IterationRecord {
  const seen = observed(proposal.seen, context);
  return {
    ...seen,
    applied: [],
    guardRejections: [],
    labelFlags: [],
    validation: [],
    verdict: "stopped",
    reason: proposal.reason,
    accuracyAfter: seen.batch.score.accuracy,
  };
}

/** The record of a decided proposal, written once. */
function decidedRecord(
  step: LoopStep,
  context: RunContext,
  followUp: Turn["followUp"],
): IterationRecord {
  const { proposal, verdict, validation } = step;
  const seen = observed(proposal.seen, context);
  const candidateHash =
    proposal.kind === "candidate"
      ? (lastCandidateHash(validation.stages) ?? proposal.candidate.hash)
      : undefined;
  const accepted = verdict.accepted ? validation.candidates.get(verdict.candidateHash) : undefined;
  return {
    ...seen,
    ...(followUp ? { followUp } : {}),
    ...(candidateHash ? { candidateHash } : {}),
    refinement: proposal.refinement,
    applied: accepted?.kept ?? proposal.guarded?.applied ?? [],
    guardRejections: proposal.guarded?.guardRejections ?? [],
    labelFlags: proposal.guarded?.labelFlags,
    validation: validation.stages,
    verdict: verdict.accepted ? "accepted" : "rejected",
    reason: verdict.reason,
    accuracyAfter: verdict.accepted ? verdict.accuracy : seen.batch.score.accuracy,
  };
}

/** The last candidate the validation ran (a pruned or ablated rebuild); a note's does not count. */
function lastCandidateHash(stages: readonly ValidationStage[]): string | undefined {
  return stages.findLast((stage) => stage.role !== "note" && stage.candidateHash)?.candidateHash;
}
