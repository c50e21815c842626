/**
 * `ecdysis bench`: arms × worlds × seeds × budgets with the same latency model, measured on a
 * held-out probe by the bench itself and scored against the sim's ground truth (the only code
 * that reads it).
 */
export { renderBenchMarkdown } from "./bench-markdown.js";
export {
  type BenchOptions,
  type BenchOptionsInput,
  benchOptionsSchema,
  defaultBudgets,
  defaultMaxIterations,
  defaultSeeds,
  defaultTemperature,
} from "./bench-options.js";
export { bootstrapMedian, median } from "./bootstrap.js";
export { type ClaimCheck, checkClaims, paperSpeedup } from "./claims.js";
export { computeComparisons, findComparison } from "./comparisons.js";
export { byConstruction } from "./construction.js";
export type { BenchClock, BenchEngine, PreparedProject, SharedRunSettings } from "./engine.js";
export type { EvolveOutcome } from "./evolve-outcome.js";
export { type GroundTruth, parseGroundTruth, readGroundTruth } from "./ground-truth.js";
export { describeMachine } from "./machine.js";
export { readmeMarkers, renderReadmeSection, replaceReadmeSection } from "./readme-section.js";
export { type BenchRunListener, runBench } from "./run-bench.js";
export { scoreRun } from "./score-run.js";
export { findAccommodations, meanPurity, patternPurities } from "./scoring.js";
export { spread, summariseArms } from "./summary.js";
export * from "./types.js";
