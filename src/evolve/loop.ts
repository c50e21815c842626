import { BudgetExhaustedError } from "../errors/budget-error.js";
import type { LoadedHarness } from "../harness/types.js";
import { decide, type Verdict } from "./acceptance.js";
import type { Evidence, EvidenceStage } from "./evidence.js";
import type { RememberedProposal } from "./memory.js";
import { scoreOf } from "./records.js";
import type { IterationRecord, StopReason } from "./result-schema.js";
import type { RunContext } from "./run-context.js";
import type { LoopState, LoopStep, Observation, Proposal, StrategyRun } from "./strategy.js";

/** What a strategy's loop ends with. */
export interface LoopOutcome {
  finalHarness: LoadedHarness;
  iterations: IterationRecord[];
  stoppedBy: StopReason;
  memory: RememberedProposal[];
}

const nothing: Evidence = { stages: [], candidates: new Map() };

/**
 * The loop, GEPA's shape: `propose(state)` → `validate(proposal)` → `decide(evidence)` →
 * `next(state, step)`, one iteration record written per proposal. It stops on the strategy's
 * own reason (a `stop` proposal, patience), after `maxIterations`, or when the budget is spent —
 * checked before each proposal; a proposal the budget cuts short is dropped (the harness
 * accepted so far stays in force).
 */
export async function runLoop(options: {
  run: StrategyRun;
  context: RunContext;
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
    for (let index = 1; ; index++) {
      const stop = stopBefore({ run, state, index, context });
      if (stop) return end(stop);
      const proposal = await runnable(await run.propose(state, index), context);
      if (proposal.kind === "stop") {
        iterations.push(stoppedRecord(proposal, context));
        return end(proposal.stoppedBy);
      }
      const evidence =
        proposal.kind === "candidate" ? await run.validate(proposal, state) : nothing;
      const verdict: Verdict =
        proposal.kind === "candidate"
          ? decide(evidence.stages)
          : { accepted: false, reason: proposal.reason };
      const step: LoopStep = { proposal, evidence, verdict };
      iterations.push(decidedRecord(step, context));
      state = run.next(state, step);
    }
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError)) throw error;
    return end(`budget:${error.resource}`);
  }
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
  index: number;
  context: RunContext;
}): StopReason | undefined {
  const own = options.run.stop?.(options.state);
  if (own) return own;
  if (options.index > options.context.config.evolve.maxIterations) return "max-iterations";
  const exhausted = options.context.exhausted();
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
    evidence: [],
    verdict: "stopped",
    reason: proposal.reason,
    accuracyAfter: seen.batch.score.accuracy,
  };
}

/** The record of a decided proposal, written once. */
function decidedRecord(step: LoopStep, context: RunContext): IterationRecord {
  const { proposal, verdict, evidence } = step;
  const seen = observed(proposal.seen, context);
  const candidateHash =
    proposal.kind === "candidate"
      ? (lastCandidateHash(evidence.stages) ?? proposal.candidate.hash)
      : undefined;
  const accepted = verdict.accepted ? evidence.candidates.get(verdict.candidateHash) : undefined;
  return {
    ...seen,
    ...(candidateHash ? { candidateHash } : {}),
    refinement: proposal.refinement,
    applied: accepted?.kept ?? proposal.guarded.applied,
    guardRejections: proposal.guarded.guardRejections,
    labelFlags: proposal.guarded.labelFlags,
    evidence: evidence.stages,
    verdict: verdict.accepted ? "accepted" : "rejected",
    reason: verdict.reason,
    accuracyAfter: verdict.accepted ? verdict.accuracy : seen.batch.score.accuracy,
  };
}

/** The last candidate the validation itself ran (a pruned or ablated rebuild), not the repair's. */
function lastCandidateHash(stages: EvidenceStage[]): string | undefined {
  for (const stage of [...stages].reverse()) {
    if (stage.stage === "repaired" || stage.stage === "ablated") continue;
    if (stage.stage === "pruned" && (stage.undone || !stage.candidateHash)) continue;
    return stage.candidateHash;
  }
  return undefined;
}
