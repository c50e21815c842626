/** The evolution loop: strategies, acceptance, budget, the held-out gate, and result.json. */
export {
  decide,
  helpsAlone,
  promising,
  significant,
  significantOverDraws,
  type Verdict,
} from "./acceptance.js";
export { BudgetTracker, emptySpend, refinementShare, type Spend, spendSchema } from "./budget.js";
export { type RunGateOptions, runGate } from "./gate.js";
export { heldOutGate, withinTolerance } from "./gate-criteria.js";
export {
  compareGate,
  evolveGate,
  type FlipGroup,
  failureSignal,
  type GateResult,
  type GateSide,
} from "./gate-result.js";
export { buildGuardContext } from "./guard.js";
export { type MeasureShardOutcome, runMeasureShard } from "./measure-shard.js";
export { type RememberedProposal, rememberedProposalSchema } from "./memory.js";
export type { ModelCallEvent } from "./meter.js";
export {
  binomialUpperTail,
  comparePaired,
  compareSamples,
  mcnemarOneSided,
  type PairedComparison,
  type PassMap,
  pairedComparisonSchema,
  type SampleComparison,
  sampleComparisonSchema,
} from "./paired-test.js";
export { type SearchHandoff, searchHandoffFile } from "./phase-files.js";
export {
  type EvolveGate,
  type EvolveResult,
  evolveResultSchema,
  type IterationRecord,
  iterationRecordSchema,
  parseEvolveResult,
  readEvolveResult,
  resultSchemaVersion,
  type StopReason,
  type TraceExcerpt,
} from "./result-schema.js";
export { createRng, deriveSeed, type Rng } from "./rng.js";
export type { Models, RunContext } from "./run-context.js";
export { type RunEvolveOptions, runEvolve, runEvolveSearch } from "./run-evolve.js";
export {
  type IterationScope,
  namedStream,
  type RandomStreams,
  type StrategyScope,
  strategyScope,
} from "./run-scope.js";
export { learnedNothing, silentSearch, silentStops, stopWhenSilent } from "./silent-end.js";
export { realStages, type StagePort } from "./stage-port.js";
export {
  ecdysisStrategy,
  iterativeStrategy,
  samplingStrategy,
  samplingVotes,
  strategyByName,
} from "./strategies/index.js";
export type { Strategy, StrategyRun } from "./strategy.js";
export { stratifiedSample } from "./stratified-sample.js";
export {
  type Candidate,
  type ChangeOutcome,
  changeOutcomeSchema,
  type Decision,
  decides,
  prunedChanges,
  type Score,
  type StageRole,
  scoreSchema,
  stageRoles,
  type ValidationResult,
  type ValidationStage,
  validationStageSchema,
} from "./validation.js";
