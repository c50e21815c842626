/** The evolution loop: strategies, acceptance, budget, the held-out gate. */
export {
  binomialUpperTail,
  comparePaired,
  isAccepted,
  isPromising,
  mcnemarOneSided,
  type PairedComparison,
  type PassMap,
} from "./acceptance.js";
export { BudgetTracker, emptySpend, type Spend } from "./budget.js";
export type {
  EvaluateOptions,
  EvolveDeps,
  GuardContextLike,
  Models,
  ProgressSink,
  RolloutCacheLike,
  ScorerLike,
} from "./deps.js";
export { type RunGateOptions, runGate } from "./gate.js";
export {
  compareGate,
  evolveGate,
  type FlipGroup,
  failureSignal,
  type GateResult,
  type GateSide,
} from "./gate-result.js";
export { buildGuardContext } from "./guard-context.js";
export type { ModelCallEvent } from "./meter.js";
export { createRng, deriveSeed, type Rng } from "./rng.js";
export { type RunEvolveOptions, runEvolve } from "./run-evolve.js";
export * from "./stage-views.js";
export {
  ecdysisStrategy,
  type IterativeOptions,
  iterativeStrategy,
  samplingStrategy,
  samplingVotes,
  strategyByName,
} from "./strategies/index.js";
export { stratifiedSample } from "./stratified-sample.js";
export type * from "./types.js";
export { wilsonInterval } from "./wilson.js";
