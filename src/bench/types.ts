import { z } from "zod";
import { strategyNameSchema } from "../config/config-schema.js";
import { trajectoryPointSchema } from "./evolve-outcome.js";

/** The strategies a bench compares (the same names as `evolve.strategy`). */
export const benchStrategySchema = strategyNameSchema;
export type BenchStrategy = z.infer<typeof benchStrategySchema>;

/** One strategy on one world with one seed: what it cost and what it produced. */
export const benchRunSchema = z.object({
  strategy: benchStrategySchema,
  world: z.string(),
  seed: z.number().int(),
  /** Training wall time (the strategy's search, without the final measurements and gate). */
  wallMs: z.number(),
  /** Uncached training rollouts, LLM calls and tokens (what the budget bounds). */
  rollouts: z.number().int(),
  llmCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  /** Share (0–1) of the training spend made by the refiner roles rather than the agent. */
  refinementShare: z.number(),
  /** Wall time of the whole `runEvolve` call, measured by the bench (measurements and gate included). */
  totalWallMs: z.number(),
  /** Uncached rollouts of the whole run (seed and final measurements included). */
  totalRollouts: z.number().int(),
  trainAccuracy: z.number(),
  /** Size of the train split (the trajectory is comparable across strategies when it covers it). */
  trainTasks: z.number().int().default(0),
  heldoutAccuracy: z.number(),
  seedTrainAccuracy: z.number(),
  seedHeldoutAccuracy: z.number(),
  acceptedEdits: z.number().int(),
  /** Accepted edits that the ground truth shows to be model-specific accommodations or leaks. */
  accommodations: z.number().int(),
  /** Why each accommodation was counted (one line each), for the report. */
  accommodationReasons: z.array(z.string()),
  /**
   * Accepted edits that are not accommodations but had no visible effect: none of the tasks they
   * addressed was among those their accepting validation saw fixed (e.g. a generic rule riding
   * along with a systematic pattern that another edit of the same candidate repaired).
   */
  ineffectiveEdits: z.number().int().default(0),
  /** Accuracy over training time, one point per accepted step (see `TrajectoryPoint`). */
  trajectory: z.array(trajectoryPointSchema).default([]),
  /** The seed harness's accuracy on the first batch, where the trajectory starts (null: none). */
  trajectorySeedAccuracy: z.number().nullable().default(null),
  /** Mean purity of the patterns the run found (null when it found none, e.g. `sampling`). */
  patternPurity: z.number().nullable(),
  patternsFound: z.number().int(),
});
export type BenchRun = z.infer<typeof benchRunSchema>;

/** The figures summarised per strategy. */
export const benchFigures = [
  "wallMs",
  "totalWallMs",
  "rollouts",
  "llmCalls",
  "promptTokens",
  "completionTokens",
  "refinementShare",
  "trainAccuracy",
  "heldoutAccuracy",
  "seedHeldoutAccuracy",
  "acceptedEdits",
  "accommodations",
  "ineffectiveEdits",
  "patternPurity",
] as const;
export type BenchFigure = (typeof benchFigures)[number];

/** Median and range of one figure over a strategy's runs (null when no run had a value). */
export const spreadSchema = z.object({
  median: z.number(),
  min: z.number(),
  max: z.number(),
  n: z.number().int(),
});
export type Spread = z.infer<typeof spreadSchema>;

const figureSpread = spreadSchema.nullable();
/** Figure name → spread, for one strategy. */
export const strategySummarySchema = z.object({
  wallMs: figureSpread,
  totalWallMs: figureSpread,
  rollouts: figureSpread,
  llmCalls: figureSpread,
  promptTokens: figureSpread,
  completionTokens: figureSpread,
  refinementShare: figureSpread,
  trainAccuracy: figureSpread,
  heldoutAccuracy: figureSpread,
  seedHeldoutAccuracy: figureSpread,
  acceptedEdits: figureSpread,
  accommodations: figureSpread,
  ineffectiveEdits: figureSpread.default(null),
  patternPurity: figureSpread,
}) satisfies z.ZodType<Record<BenchFigure, Spread | null>>;
/** Figure name → spread, for one strategy. */
export type StrategySummary = z.infer<typeof strategySummarySchema>;

/** Headline comparisons, each the median over the world × seed pairs where both strategies ran. */
export const benchRatiosSchema = z.object({
  /**
   * Time-to-match: iterative's time to first reach its best train accuracy A* / Ecdysis's time to
   * first reach ≥ A*; median over the pairs where iterative improved on the seed harness, a pair
   * where Ecdysis never reached A* counting as 0 (see src/bench/README.md).
   */
  timeToMatchIterativeOverEcdysis: z.number().nullable().default(null),
  /** Pairs the time-to-match median was taken over (failures included). */
  timeToMatchPairs: z.number().int().default(0),
  /** Of those, pairs where Ecdysis never reached iterative's best train accuracy. */
  timeToMatchFailures: z.number().int().default(0),
  /** Pairs left out because iterative never improved on the seed harness (nothing to match). */
  timeToMatchNoTarget: z.number().int().default(0),
  /** iterative total training wall time / ecdysis total training wall time. */
  wallTimeIterativeOverEcdysis: z.number().nullable(),
  /** iterative rollouts / ecdysis rollouts. */
  rolloutsIterativeOverEcdysis: z.number().nullable(),
  /** held-out accuracy of ecdysis − iterative (absolute, 0–1). */
  heldoutDiffEcdysisMinusIterative: z.number().nullable(),
  /** (ecdysis − iterative) / iterative held-out accuracy. */
  heldoutRelativeGainOverIterative: z.number().nullable(),
  /** held-out accuracy of ecdysis − sampling (absolute, 0–1). */
  heldoutDiffEcdysisMinusSampling: z.number().nullable(),
  /** How many world × seed pairs the ratios were taken over. */
  pairs: z.number().int(),
});
export type BenchRatios = z.infer<typeof benchRatiosSchema>;

/** Time-to-match on one world × seed: how long each strategy took to reach iterative's best. */
export const timeToMatchPairSchema = z.object({
  world: z.string(),
  seed: z.number().int(),
  /** A*: iterative's best train accuracy during its search (null: no iterative iteration ran). */
  target: z.number().nullable(),
  /** Iterative's training time when it first reached A*. */
  iterativeMs: z.number().nullable(),
  /** Ecdysis's training time when it first reached ≥ A* (null: never). */
  ecdysisMs: z.number().nullable(),
  /** iterativeMs / ecdysisMs; 0 when Ecdysis never reached A*; null when there is nothing to match. */
  ratio: z.number().nullable(),
  /**
   * `matched`; `not-reached` (Ecdysis never reached A*: a failure of the claim); `no-target`
   * (iterative never rose above the seed harness, so there is no quality to match);
   * `no-timing` (a run without per-iteration times).
   */
  status: z.enum(["matched", "not-reached", "no-target", "no-timing"]),
  /** False when a trajectory was measured on a batch smaller than the train split. */
  fullTrainSplit: z.boolean(),
});
export type TimeToMatchPair = z.infer<typeof timeToMatchPairSchema>;

/** A world as the bench reports it: its parameters and the refiner-side assumptions. */
export const benchWorldSchema = z.object({
  name: z.string(),
  /** Where it came from: a bundled name or an absolute file path. */
  source: z.string(),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()),
  refinerAssumptions: z.record(z.string(), z.unknown()),
  /** True when one instance is diagnosed as well as many (the advantage of aggregation vanishes). */
  neutralRefiner: z.boolean(),
});
export type BenchWorld = z.infer<typeof benchWorldSchema>;

/** The machine the figures were measured on. */
export const machineSchema = z.object({
  cpu: z.string(),
  cores: z.number().int(),
  node: z.string(),
  platform: z.string(),
  memoryGb: z.number(),
});
export type Machine = z.infer<typeof machineSchema>;

/** `DIR/bench.json`. */
export const benchResultSchema = z.object({
  version: z.literal(1),
  date: z.string(),
  machine: machineSchema,
  settings: z.object({
    strategies: z.array(benchStrategySchema),
    seeds: z.array(z.number().int()),
    budgetRollouts: z.number().int(),
    /** Null: each world's own latency scale. */
    latencyScale: z.number().nullable(),
    concurrency: z.number().int(),
    maxIterations: z.number().int(),
  }),
  worlds: z.array(benchWorldSchema),
  runs: z.array(benchRunSchema),
  summary: z.record(z.string(), strategySummarySchema),
  ratios: benchRatiosSchema,
  /** The same ratios per world, for the "where it does not hold" section. */
  ratiosByWorld: z.record(z.string(), benchRatiosSchema),
  /** Time-to-match per world × seed pair (see `timeToMatchPairSchema`). */
  timeToMatch: z.array(timeToMatchPairSchema).default([]),
});
export type BenchResult = z.infer<typeof benchResultSchema>;
