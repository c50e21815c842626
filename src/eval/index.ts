export { type EvalOutput, readEvalOutput, writeEvalOutput } from "./eval-output.js";
export {
  addCosts,
  buildEvalResult,
  type EvalCost,
  emptyCost,
  foldTaskResults,
} from "./eval-result.js";
export { type EvaluateOptions, evaluate } from "./evaluate.js";
export { mergeEvalResults, mergeRecords, sortRecords } from "./merge-results.js";
export {
  type OpenModels,
  type OpenModelsOptions,
  openModels,
  type SimModelServer,
} from "./open-models.js";
export {
  createProgress,
  type ProgressOptions,
  type ProgressSink,
} from "./progress.js";
export { promisePool } from "./promise-pool.js";
export { RolloutCache } from "./rollout-cache.js";
export { rolloutKey } from "./rollout-key.js";
export { rolloutCacheDir, rolloutParams } from "./rollout-params.js";
export { type RunEvalOptions, type RunEvalResult, runEval } from "./run-eval.js";
export { createScorer, type ScorerContext, scorerForTasks } from "./scorers/create-scorer.js";
export type { Scorer, ScorerOutput, VerdictReason } from "./scorers/scorer.js";
export { ScorerError } from "./scorers/scorer-error.js";
export { parseShard, shardOf, shardTasks } from "./shard-tasks.js";
export { majorityPass, wilsonInterval } from "./statistics.js";
export * from "./types.js";
