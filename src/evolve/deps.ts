import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import type { ScorerSpec, Task } from "../config/task-schema.js";
import type { ProgressSink } from "../eval/progress.js";
import type { Scorer as ScorerLike } from "../eval/scorers/scorer.js";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import type { GuardRejection, LoadedHarness, PlannedEdit } from "../harness/types.js";
import type { Downgrade } from "../llm/capabilities.js";
import type { ChatProvider } from "../llm/types.js";
import type { SecretRedactor } from "../safety/secrets.js";
import type {
  DiagnosisView,
  PatternView,
  RefinementView,
  RejectedProposalView,
} from "./stage-views.js";

/** What evaluation needs from a scorer (src/eval's Scorer) and a progress display. */
export type { ProgressSink, ScorerLike };

/** What evaluation needs from a rollout cache. */
export interface RolloutCacheLike {
  get(key: string): Promise<RolloutRecord | undefined>;
  put(record: RolloutRecord): Promise<void>;
}

/** Options of src/eval's `evaluate`. */
export interface EvaluateOptions {
  tasks: Task[];
  harness: LoadedHarness;
  provider: ChatProvider;
  adapter: AgentAdapter;
  scorer: (task: Task) => ScorerLike;
  samples?: number;
  concurrency: number;
  cache?: RolloutCacheLike;
  progress?: ProgressSink;
  signal?: AbortSignal;
  split: string;
  label?: string;
  /** Sampling parameters that key the rollout cache. */
  params?: object;
  /** Index of the first sample (re-samples use fresh indices). */
  firstSample?: number;
  /** Called with each record as soon as it is scored. */
  onRecord?: (record: RolloutRecord) => void;
  /** The run's secrets, scrubbed from every trace before it is scored or cached. */
  redactor?: SecretRedactor;
}

/** The models a run uses. Providers are plain chat providers; the loop meters them itself. */
export interface Models {
  agent: ChatProvider;
  refiner: ChatProvider;
  probe?: ChatProvider;
  /** The llm_judge scorer's model; the refiner's when absent. */
  judge?: ChatProvider;
  /** Capability steps the endpoints forced so far (src/eval `openModels`). */
  downgrades?(): Downgrade[];
}

/** Options of the diagnosis stage (src/diagnose's `diagnoseBatch`). */
export interface DiagnoseOptions {
  records: RolloutRecord[];
  tasks: Task[];
  refiner: ChatProvider;
  resample?: (records: RolloutRecord[], k: number) => Promise<RolloutRecord[]>;
  probe?: (records: RolloutRecord[]) => Promise<RolloutRecord[]>;
  minSupport: { tasks: number; categories: number };
  /** Re-samples per failing member (evolve.resamples). */
  resamples?: number;
  /** The agent model's temperature: at 0 it is deterministic and re-sampling is skipped. */
  agentTemperature?: number;
  /** The harness's step budget, for the step-count signal. */
  stepLimit?: number;
  /** Told, before re-sampling, which patterns passed the support test (systematic so far). */
  onSupported?: (patterns: PatternView[]) => void;
  /** Held-out tasks, only for the stage to refuse them (`sealHeldout` passes them). */
  heldout?: Task[];
}

/**
 * Every other stage the loop calls, injected so the loop can be tested with small fakes
 * (src/evolve/testing) and wired to the real stages in `real-deps.ts`.
 */
export interface EvolveDeps {
  evaluate(options: EvaluateOptions): Promise<{ result: EvalResult; records: RolloutRecord[] }>;
  diagnose(options: DiagnoseOptions): Promise<DiagnosisView>;
  /** Writes one failure's note ahead of its diagnosis (src/diagnose's `noteFailure`). */
  noteFailure(options: {
    record: RolloutRecord;
    task?: Task;
    refiner: ChatProvider;
    stepLimit?: number;
  }): Promise<void>;
  refine(options: {
    patterns: PatternView[];
    harness: LoadedHarness;
    refiner: ChatProvider;
    rejected: RejectedProposalView[];
    skepticRounds: number;
    /** Held-out tasks, only for the stage to refuse them. */
    heldout?: Task[];
    /** Globs the edits may touch (the roles see them and, the Editor, those files). */
    editable?: string[];
  }): Promise<RefinementView>;
  reflect(options: {
    failures: RolloutRecord[];
    tasks: Task[];
    harness: LoadedHarness;
    refiner: ChatProvider;
    rejected: RejectedProposalView[];
    /** Held-out tasks, only for the stage to refuse them. */
    heldout?: Task[];
    editable?: string[];
  }): Promise<RefinementView>;
  applyEdits(options: { harness: LoadedHarness; edits: PlannedEdit[]; guard: GuardContextLike }): {
    harness: LoadedHarness;
    applied: PlannedEdit[];
    rejected: GuardRejection[];
  };
  diffHarness(
    before: LoadedHarness,
    after: LoadedHarness,
  ): { patch: string; files: { path: string; added: number; removed: number }[] };
  loadHarness(options: {
    dir: string;
    kind: "builtin" | "command";
    command?: string[];
  }): Promise<LoadedHarness>;
  writeHarness(harness: LoadedHarness, dir: string): Promise<void>;
  loadTasks(path: string): Promise<Task[]>;
  createScorer(spec: ScorerSpec, context: { root: string; judge?: ChatProvider }): ScorerLike;
  createAdapter(loaded: LoadedConfig): AgentAdapter;
  createRolloutCache(dir: string): RolloutCacheLike;
  /** Opens the configured models (starts the sim in-process for `provider: sim`). */
  openModels(loaded: LoadedConfig): Promise<Models & { close(): Promise<void> }>;
  /** Wraps a provider with the on-disk call cache (src/llm's withCallCache), scrubbing what it stores. */
  withCallCache(provider: ChatProvider, dir: string, redactor?: SecretRedactor): ChatProvider;
}

/** src/harness's GuardContext. */
export interface GuardContextLike {
  editable: string[];
  protectedPaths: string[];
  forbiddenStrings: string[];
  forbiddenInputs: string[];
  secretValues?: string[];
  maxFileBytes?: number;
  maxEditBytes?: number;
}
