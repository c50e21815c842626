import type { EcdysisConfig, StrategyName } from "../config/config-schema.js";
import type { Task } from "../config/task-schema.js";
import type { DiagnosisReport } from "../diagnose/diagnose-batch.js";
import type { LoadedHarness } from "../harness/types.js";
import type { RefinementRecord } from "../refine/refinement-record.js";
import type { Verdict } from "./acceptance.js";
import type { GuardedEdits } from "./guard.js";
import type { RememberedProposal } from "./memory.js";
import type { StopReason, TraceExcerpt } from "./result-schema.js";
import type { Evaluation, RunContext } from "./run-context.js";
import type { IterationScope, RandomStreams, StrategyScope } from "./run-scope.js";
import type { ValidationResult } from "./validation.js";

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

/**
 * A refinement and its guarded edits: the parts every proposal with a refinement has, and the
 * strategy's own data (`data`: what it drew, what it addressed — read back by its own
 * `validate` and `next`, never by the loop).
 */
interface Refined<Data> {
  seen: Observation;
  refinement: RefinementRecord;
  guarded: GuardedEdits;
  /** What a rejection is remembered under: pattern ids and names, or the reflector's task ids. */
  targets: string[];
  data: Data;
}

/** A proposal with a candidate harness to validate. */
export interface CandidateProposal<Data = unknown> extends Refined<Data> {
  kind: "candidate";
  candidate: LoadedHarness;
}

/**
 * A proposal that left nothing to validate: the roles or the guards produced no change, it
 * repeats a rejected one, or (a follow-up) there was nothing to refine — then it has no
 * refinement.
 */
export type RefusedProposal<Data = unknown> = Omit<Refined<Data>, "refinement" | "guarded"> &
  Partial<Pick<Refined<Data>, "refinement" | "guarded">> & { kind: "refused"; reason: string };

/** One proposal of a strategy, a value: a candidate to validate, a refusal, or a reason to stop. */
export type Proposal<Data = unknown> =
  | CandidateProposal<Data>
  | RefusedProposal<Data>
  | { kind: "stop"; seen: Observation; stoppedBy: StopReason; reason: string };

/** One turn of the loop, handed to `next`. */
export interface LoopStep<Data = unknown> {
  proposal: CandidateProposal<Data> | RefusedProposal<Data>;
  validation: ValidationResult;
  verdict: Verdict;
}

/**
 * A strategy opened on one run. The loop (`loop.ts`) drives it: `propose(state, scope)` →
 * `validate(proposal)` → `decide(stages)` (acceptance.ts) → `next(state, step)`. `scope` names
 * the iteration's journal stages and random streams (run-scope.ts).
 */
export interface StrategyRun<S extends LoopState = LoopState, Data = unknown> {
  /** The state before the first proposal (the iterative baseline evaluates the seed here). */
  start(seed: LoadedHarness): Promise<S>;
  /** A reason to stop before the next proposal (patience, no evolution); undefined: go on. */
  stop?(state: S): StopReason | undefined;
  /**
   * What the next proposal follows up, when it continues the iteration just decided instead of
   * starting one (a repair of what a rejected candidate broke): its purpose, recorded with it.
   * A follow-up shares its iteration's index and scope and does not count toward maxIterations.
   */
  followUp?(state: S): string | undefined;
  propose(state: S, scope: IterationScope): Promise<Proposal<Data>>;
  validate(
    proposal: CandidateProposal<Data>,
    state: S,
    scope: IterationScope,
  ): Promise<ValidationResult>;
  /** The state after a decided proposal: the accepted candidate in force, rejections remembered. */
  next(state: S, step: LoopStep<Data>): S;
  /** Samples per task when the final harness is measured (sampling: K votes); default the config's. */
  finalSamples?: number;
}

/** A way of improving a harness, opened on a run's context. */
export interface Strategy {
  readonly name: StrategyName;
  /** Its random streams (run-scope.ts): the scopes it is opened with draw only from these. */
  readonly streams: RandomStreams;
  open(context: RunContext, scope: StrategyScope): StrategyRun<LoopState>;
  /**
   * Samples per task of the final measurement, known before the run opens (the budget reserves
   * them under `scope: run`); its runs' `finalSamples` agree. Default: the config's samples.
   */
  finalSamples?(input: { config: EcdysisConfig; trainSize: number; heldoutSize: number }): number;
}
