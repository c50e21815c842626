import { BudgetExhaustedError } from "../errors/budget-error.js";
import type { LoadedHarness } from "../harness/types.js";
import { decide, type Verdict } from "./acceptance.js";
import type { Evidence, EvidenceStage } from "./evidence.js";
import type { RememberedProposal } from "./memory.js";
import { scoreOf } from "./records.js";
import type { IterationRecord, StopReason } from "./result-schema.js";
import type { RunContext } from "./run-context.js";
import type { LoopState, LoopStep, Proposal, StrategyRun } from "./strategy.js";

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
      const proposal = await run.propose(state, index);
      if (proposal.kind === "stop") {
        iterations.push(iterationRecord({ proposal, context }));
        return end(proposal.stoppedBy);
      }
      const evidence =
        proposal.kind === "candidate" ? await run.validate(proposal, state) : nothing;
      const verdict: Verdict =
        proposal.kind === "candidate"
          ? decide(evidence.stages)
          : { accepted: false, reason: proposal.reason };
      const step: LoopStep = { proposal, evidence, verdict };
      iterations.push(iterationRecord({ proposal, step, context }));
      state = run.next(state, step);
    }
  } catch (error) {
    if (!(error instanceof BudgetExhaustedError)) throw error;
    return end(`budget:${error.resource}`);
  }
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

/** The iteration record of one proposal, written once, when it is decided. */
function iterationRecord(options: {
  proposal: Proposal;
  step?: LoopStep;
  context: RunContext;
}): IterationRecord {
  const { proposal, step } = options;
  const { seen } = proposal;
  const score = scoreOf(seen.batch.run.result);
  const diagnosis = seen.diagnosis && {
    patterns: seen.diagnosis.patterns,
    evidenceCount: seen.diagnosis.evidence.length,
    stats: seen.diagnosis.stats,
  };
  const common = {
    index: seen.index,
    parentHash: seen.parent.hash,
    batch: { taskIds: seen.batch.tasks.map((task) => task.id), score },
    ...(diagnosis ? { diagnosis } : {}),
    elapsedMs: options.context.elapsedMs(),
    traces: seen.traces,
  };
  if (proposal.kind === "stop" || !step)
    return {
      ...common,
      applied: [],
      guardRejections: [],
      evidence: [],
      verdict: "stopped",
      reason: proposal.kind === "stop" ? proposal.reason : "",
      accuracyAfter: score.accuracy,
    };
  const { verdict, evidence } = step;
  const candidateHash =
    proposal.kind === "candidate"
      ? (lastCandidateHash(evidence.stages) ?? proposal.candidate.hash)
      : undefined;
  return {
    ...common,
    ...(candidateHash ? { candidateHash } : {}),
    refinement: proposal.refinement,
    applied: verdict.accepted
      ? (evidence.candidates.get(verdict.candidateHash)?.kept ?? proposal.guarded.applied)
      : proposal.guarded.applied,
    guardRejections: proposal.guarded.guardRejections,
    evidence: evidence.stages,
    verdict: verdict.accepted ? "accepted" : "rejected",
    reason: verdict.reason,
    accuracyAfter: verdict.accepted ? verdict.accuracy : score.accuracy,
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
