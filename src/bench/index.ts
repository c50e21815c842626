/**
 * `ecdysis bench`: strategies × worlds × seeds with the same budget and latency model, scored
 * against the sim's ground truth (the only code that reads it).
 */
export { renderBenchMarkdown } from "./bench-markdown.js";
export {
  type BenchOptions,
  type BenchOptionsInput,
  benchOptionsSchema,
  defaultBudgetRollouts,
  defaultMaxIterations,
} from "./bench-options.js";
export { type ClaimCheck, checkClaims, paperSpeedup } from "./claims.js";
export type { BenchClock, BenchEngine, PreparedProject, SharedRunSettings } from "./engine.js";
export type { EvolveOutcome } from "./evolve-outcome.js";
export { type GroundTruth, parseGroundTruth, readGroundTruth } from "./ground-truth.js";
export { describeMachine } from "./machine.js";
export { readmeMarkers, renderReadmeSection, replaceReadmeSection } from "./readme-section.js";
export { type BenchRunListener, runBench, scoreRun } from "./run-bench.js";
export { findAccommodations, meanPurity, patternPurities } from "./scoring.js";
export { computeRatios, median, spread, summarise } from "./summary.js";
export * from "./types.js";
