import type { EcdysisConfig } from "../config/config-schema.js";
import type { Task } from "../config/task-schema.js";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import type { GuardRejection, LoadedHarness, PlannedEdit } from "../harness/types.js";
import type { Downgrade } from "../llm/capabilities.js";
import type { PairedComparison, SampleComparison } from "./acceptance.js";
import type { Spend } from "./budget.js";
import type { EvolveDeps, GuardContextLike, Models } from "./deps.js";
import type { Rng } from "./rng.js";
import type { DiagnosisView, RefinementView, RejectedProposalView } from "./stage-views.js";

/** Names of the built-in strategies. */
export type StrategyName = "ecdysis" | "iterative" | "sampling";

/** Why a strategy stopped. */
export type StopReason =
  | "no-failures"
  | "no-systematic-pattern"
  /** Systematic patterns remain, but each has used its attempts (or got no proposal on this harness). */
  | "attempts-exhausted"
  | "max-iterations"
  | "patience"
  | "no-evolution"
  | `budget:${"rollouts" | "tokens" | "costUsd" | "wallMs"}`;

/** Accuracy of one harness on one set of tasks. */
export interface Score {
  accuracy: number;
  n: number;
  interval: [number, number];
  /** Rollouts that did not reach the model (not in `n`, never scored). */
  infraErrors?: number;
}

/** A trace excerpt kept for the report (train rollouts only). */
export interface TraceExcerpt {
  key: string;
  taskId: string;
  category: string;
  output: string;
  answer: string | null;
  verdict: { pass: boolean; reason: string };
  events: string[];
  steps: {
    assistant: string | null;
    toolCalls: { name: string; arguments: string; result: string; error: boolean }[];
  }[];
}

/** A change of a proposal dropped before the full-batch check because it fixed none of its targets. */
export interface PrunedChange {
  edits: PlannedEdit[];
  /** Ids of the patterns it addressed. */
  patterns: string[];
  patternNames: string[];
  /** Failing members of those patterns in the batch. */
  targets: number;
  reason: string;
}

/** One proposal of a strategy: what was seen, proposed, guarded, validated and decided. */
export interface IterationRecord {
  index: number;
  parentHash: string;
  candidateHash?: string;
  batch: { taskIds: string[]; score: Score };
  diagnosis?: DiagnosisView;
  refinement?: RefinementView;
  applied: PlannedEdit[];
  guardRejections: GuardRejection[];
  validation: {
    cheap?: PairedComparison;
    /** Cheap validation again, of the candidate without the pruned changes (only when some were pruned). */
    cheapPruned?: PairedComparison;
    /**
     * The changes (their pattern names) attribution would have pruned but that were kept: the
     * candidate was promising with them and not without them (`cheapPruned`).
     */
    pruningUndone?: string[];
    full?: PairedComparison;
    /** The discordant tasks of the full batch re-drawn under both harnesses (`confirmSamples`). */
    confirm?: SampleComparison;
    /** A rejected bundle's changes tried one by one on the parent (kept: fixes more than it breaks alone). */
    ablation?: { patterns: string[]; fixed: number; broken: number; kept: boolean }[];
    /** The full batch (and its re-draws) of the candidate rebuilt from the kept changes. */
    fullAblated?: PairedComparison;
    confirmAblated?: SampleComparison;
    candidate?: Score;
  };
  /** A rejected candidate's repair round: its regressions diagnosed and refined on top (ecdysis). */
  repair?: IterationRecord;
  /** Changes dropped by per-change attribution (ecdysis). */
  pruned?: PrunedChange[];
  verdict: "accepted" | "rejected" | "no-proposal" | "stopped";
  reason: string;
  /** Accuracy of the harness in force after this iteration, on this iteration's batch (for charts). */
  accuracyAfter: number;
  /**
   * Training wall time (ms, the budget's clock) when this iteration finished; set by runEvolve.
   * The bench reads it to chart accuracy against time (time-to-match).
   */
  elapsedMs?: number;
  /** Example traces of the patterns, for the HTML report. */
  traces: TraceExcerpt[];
}

/** What a strategy hands back to the runner. */
export interface StrategyOutcome {
  finalHarness: LoadedHarness;
  iterations: IterationRecord[];
  stoppedBy: StopReason;
  /** Samples per task used when the final harness is evaluated (sampling: K with majority vote). */
  evaluationSamples?: number;
  rejected: RejectedProposalView[];
}

/** Evaluation as strategies call it: budget-metered, journaled by the caller. */
export type EvaluateFn = (options: {
  tasks: Task[];
  harness: LoadedHarness;
  label: string;
  samples?: number;
  /** Index of the first sample (re-samples of failing members use fresh indices). */
  firstSample?: number;
  provider?: "agent" | "probe";
  /** Called with each record as soon as it is scored (see `stream-notes.ts`). */
  onRecord?: (record: RolloutRecord) => void;
}) => Promise<{ result: EvalResult; records: RolloutRecord[] }>;

/** Everything a strategy may use. Held-out tasks are not here: only the guard sees their data. */
export interface StrategyContext {
  config: EcdysisConfig;
  seedHarness: LoadedHarness;
  train: Task[];
  /** Number of held-out tasks (a count, not their data: the sampling baseline sizes its vote from it). */
  heldoutSize: number;
  guard: GuardContextLike;
  deps: EvolveDeps;
  /** Metered providers (refiner and probe calls count toward the budget). */
  models: Models;
  /** Whether identical model calls are shared in flight and replayed from disk (the call cache). */
  callCache: boolean;
  evaluate: EvaluateFn;
  /** Runs a stage once per run: a finished stage is replayed from the journal on resume. */
  stage<T>(name: string, run: () => Promise<T>): Promise<T>;
  /** Seeded RNG for a named sub-stream (deterministic across resumes). */
  rng(...parts: number[]): Rng;
  /** Throws BudgetExhaustedError when the budget is spent. */
  checkBudget(): void;
  /** Rollout budget left (Infinity when unlimited). */
  remainingRollouts(): number;
  /**
   * Starts work that may outlive the step that started it (speculative preparation of a later
   * stage), outside any running stage, so only a stage of its own records its spend; the run
   * awaits it, whatever its outcome, before training ends. Returns the started work.
   */
  background<T>(start: () => Promise<T>): Promise<T>;
  /** Test hook: records iterations as they finish, so a crash keeps them observable. */
  onIteration?(record: IterationRecord): void;
}

/** A way of improving a harness: one method. */
export interface Strategy {
  readonly name: StrategyName;
  run(context: StrategyContext, progress: StrategyProgress): Promise<StrategyOutcome>;
}

/**
 * Mutable state a strategy keeps while it runs, so the runner can stop it cleanly on budget
 * exhaustion and still report the harness accepted so far.
 */
export interface StrategyProgress {
  harness: LoadedHarness;
  iterations: IterationRecord[];
  rejected: RejectedProposalView[];
  evaluationSamples?: number;
}

/** The `cost` section of result.json. */
export interface CostSummary {
  rollouts: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  wallMs: number;
  /** Refiner share of the tokens (and of cost when priced), 0–1. */
  refinementShare: number;
  refinement: { llmCalls: number; tokens: number; costUsd: number };
  /** Spend of the training part alone (what the budget bounds). */
  training: Spend;
}

/** Held-out gate of an evolve run: seed versus final harness. */
export interface EvolveGate {
  passed: boolean;
  reason: string;
  comparison: PairedComparison;
  tolerance: number;
  requireImprovement: boolean;
}

/** Who ran what, when: `run` in result.json. */
export interface RunMetadata {
  /** ISO times this invocation started and finished (the run's clock). */
  startedAt: string;
  finishedAt: string;
  /** The Ecdysis version that wrote the result. */
  ecdysisVersion?: string;
  /** The commit of the repository holding the config; `dirty` with uncommitted changes. */
  git?: { commit: string; dirty: boolean };
  /** `--limit`: at most this many tasks of each split were used. */
  limit?: number;
}

/** What runEvolve writes to result.json. */
export interface EvolveResult {
  version: 1;
  strategy: StrategyName;
  seed: number;
  configHash: string;
  model: string;
  stoppedBy: StopReason;
  baseline: { train: Score; heldout: Score };
  final: { train: Score; heldout: Score };
  iterations: IterationRecord[];
  acceptedEdits: PlannedEdit[];
  rejectedProposals: RejectedProposalView[];
  cost: CostSummary;
  harness: {
    seedHash: string;
    finalHash: string;
    changedFiles: { path: string; added: number; removed: number }[];
    patch: string;
  };
  gate: EvolveGate;
  /** Run metadata (absent in results written before it existed). */
  run?: RunMetadata;
  /** What the endpoints could not do: the capability steps taken (src/llm `Downgrade`). */
  endpoints?: { downgrades: Downgrade[] };
}
