import type { z } from "zod";
import type { EcdysisConfig } from "../config/config-schema.js";
import type { Task } from "../config/task-schema.js";
import type { BudgetExhaustedError } from "../errors/budget-error.js";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import type { GuardContext } from "../harness/guard-context.js";
import type { LoadedHarness } from "../harness/types.js";
import type { Downgrade } from "../llm/capabilities.js";
import type { ModelGateway } from "../llm/index.js";
import type { ChatProvider } from "../llm/types.js";
import type { StagePort } from "./stage-port.js";

/** The models a run uses. Plain chat providers; the run meters them itself. */
export interface Models {
  agent: ChatProvider;
  refiner: ChatProvider;
  probe?: ChatProvider;
  /** The llm_judge scorer's model; the refiner's when absent. */
  judge?: ChatProvider;
  /** Capability steps the endpoints forced so far (src/eval `openModels`). */
  downgrades?(): Downgrade[];
  /** The model gateway a command harness reaches its model through (src/eval `openModels`). */
  gateway?: ModelGateway;
}

/** An evaluation's outcome: the result and its records. */
export interface Evaluation {
  result: EvalResult;
  records: RolloutRecord[];
}

/** Evaluation as strategies call it: cached, the config's concurrency and samples, the budget metered. */
export type EvaluateFn = (request: {
  tasks: Task[];
  harness: LoadedHarness;
  label: string;
  samples?: number;
  /** Index of the first sample (re-draws use the indices after the batch's own). */
  firstSample?: number;
  provider?: "agent" | "probe";
  /** Called with each record as soon as it is scored. */
  onRecord?: (record: RolloutRecord) => void;
  /** Which records to return (default all); the rest still reach `onRecord` and the cache. */
  keep?: (record: RolloutRecord) => boolean;
}) => Promise<Evaluation>;

/** Everything a strategy may use. Held-out tasks are not here: only the guard sees their data. */
export interface RunContext {
  config: EcdysisConfig;
  train: Task[];
  /** Number of held-out tasks (a count, not their data: the sampling baseline sizes its vote from it). */
  heldoutSize: number;
  guard: GuardContext;
  /** Metered providers (refiner and probe calls count toward the budget). */
  models: Models;
  /** The LLM-backed stages (diagnose, notes, refine, reflect). */
  stages: StagePort;
  evaluate: EvaluateFn;
  /**
   * Runs a stage once per run: a finished stage is replayed from the journal on resume. With
   * `schema` (`stageSchemas`), a replayed output that does not match it is recomputed.
   */
  stage<T>(name: string, run: () => Promise<T>, schema?: z.ZodType): Promise<T>;
  /**
   * Starts work that may outlive the step that started it (speculative preparation of a later
   * stage), outside any running stage, so only a stage of its own records its spend; the run
   * awaits it, whatever its outcome, before training ends. Returns the started work.
   */
  background<T>(start: () => Promise<T>): Promise<T>;
  /** The speed tricks are on (src/evolve/speed; they need the call cache): work started early, same results. */
  speedups: boolean;
  /**
   * Why a candidate may not run at all — a command harness's edited files no longer parse — or
   * undefined. Checked before any rollout of a candidate (loop.ts, the repair round). Absent:
   * every candidate may run (a built-in harness's edits are schema-checked by the guards).
   */
  checkCandidate?(input: {
    candidate: LoadedHarness;
    parent: LoadedHarness;
  }): Promise<string | undefined>;
  /** The spent budget resource, if any: the loop's stop condition. */
  exhausted(): BudgetExhaustedError | undefined;
  /**
   * Training rollouts the budget still allows (undefined without a rollout limit): what a
   * strategy sizes its next step to (src/evolve/strategies/ecdysis-budget.ts).
   */
  rolloutsLeft?(): number | undefined;
  /** Training wall time so far (ms, the budget's clock). */
  elapsedMs(): number;
}
