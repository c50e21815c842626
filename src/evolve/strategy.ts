import type { EcdysisConfig, StrategyName } from "../config/config-schema.js";
import type { Task } from "../config/task-schema.js";
import type { DiagnosisReport } from "../diagnose/diagnose-batch.js";
import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { LoadedHarness } from "../harness/types.js";
import type { RefinementRecord } from "../refine/refinement-record.js";
import type { Verdict } from "./acceptance.js";
import type { Evidence } from "./evidence.js";
import type { GuardedEdits } from "./guard.js";
import type { RememberedProposal } from "./memory.js";
import type { StopReason, TraceExcerpt } from "./result-schema.js";
import type { Evaluation, RunContext } from "./run-context.js";

/** What the loop carries from one proposal to the next; strategies extend it with their own. */
export interface LoopState {
  /** The harness in force: the seed, or the last accepted candidate. */
  harness: LoadedHarness;
  /** Rejected proposals, shown to later refinements. */
  memory: RememberedProposal[];
}

/** What a proposal step saw: the parent harness on a batch, and (ecdysis) the batch's diagnosis. */
export interface Observation {
  index: number;
  parent: LoadedHarness;
  batch: { tasks: Task[]; run: Evaluation };
  diagnosis?: DiagnosisReport;
  traces: TraceExcerpt[];
}

/** A refinement and its guarded edits: the parts every proposal with a refinement has. */
interface Refined {
  seen: Observation;
  refinement: RefinementRecord;
  guarded: GuardedEdits;
  /** The patterns the edits address (ecdysis; empty for the iterative reflector). */
  addressed: FailurePattern[];
  /** What a rejection is remembered under: pattern ids and names, or the reflector's task ids. */
  targets: string[];
}

/** A proposal with a candidate harness to validate. */
export interface CandidateProposal extends Refined {
  kind: "candidate";
  candidate: LoadedHarness;
}

/**
 * One proposal of a strategy, a value: a candidate to validate, a refinement that left nothing
 * to validate (`refused`: the roles or the guards produced no change, or it repeats a rejected
 * one), or a reason to stop.
 */
export type Proposal =
  | CandidateProposal
  | (Refined & { kind: "refused"; reason: string })
  | { kind: "stop"; seen: Observation; stoppedBy: StopReason; reason: string };

/** One turn of the loop, handed to `next`. */
export interface LoopStep {
  proposal: Exclude<Proposal, { kind: "stop" }>;
  evidence: Evidence;
  verdict: Verdict;
}

/**
 * A strategy opened on one run. The loop (`loop.ts`) drives it: `propose(state)` →
 * `validate(proposal)` → `decide(evidence)` (acceptance.ts) → `next(state, step)`.
 */
export interface StrategyRun<S extends LoopState = LoopState> {
  /** The state before the first proposal (the iterative baseline evaluates the seed here). */
  start(seed: LoadedHarness): Promise<S>;
  /** A reason to stop before the next proposal (patience, no evolution); undefined: go on. */
  stop?(state: S): StopReason | undefined;
  propose(state: S, index: number): Promise<Proposal>;
  validate(proposal: CandidateProposal, state: S): Promise<Evidence>;
  /** The state after a decided proposal: the accepted candidate in force, rejections remembered. */
  next(state: S, step: LoopStep): S;
  /** Samples per task when the final harness is measured (sampling: K votes); default the config's. */
  finalSamples?: number;
}

/** A way of improving a harness, opened on a run's context. */
export interface Strategy {
  readonly name: StrategyName;
  open(context: RunContext): StrategyRun<LoopState>;
  /**
   * Samples per task of the final measurement, known before the run opens (the budget reserves
   * them under `scope: run`); its runs' `finalSamples` agree. Default: the config's samples.
   */
  finalSamples?(input: { config: EcdysisConfig; trainSize: number; heldoutSize: number }): number;
}
