import { z } from "zod";
import { strategyNames } from "../config/config-schema.js";
import { reachSchema } from "./ceiling.js";
import { comparisonFiguresSchema, pairFiguresSchema } from "./comparison-schema.js";
import { trajectoryPointSchema } from "./evolve-outcome.js";

export {
  type ComparisonFigures,
  comparisonFiguresSchema,
  type Estimate,
  estimateSchema,
  type Match,
  matchSchema,
  type PairFigures,
  pairFiguresSchema,
  type SpendMatch,
  spendMatchSchema,
} from "./comparison-schema.js";

/**
 * The arms a bench compares. `ecdysis`, `iterative` and `sampling` are the strategies of the
 * same names (`evolve.strategy`, config's `strategyNames`); `ecdysis-serial` is Ecdysis with its
 * pipelining (the speed wrappers of src/evolve/speed) switched off, for the decomposition.
 */
export const benchStrategySchema = z.enum([...strategyNames, "ecdysis-serial"]);
export type BenchStrategy = z.infer<typeof benchStrategySchema>;

/**
 * Which refiner assumptions the sim plays: the world's own, or the world with a neutral refiner
 * (one instance diagnosed as well as many, no item hints) — the decomposition's control.
 */
export const refinerVariantSchema = z.enum(["world", "neutral"]);
export type RefinerVariant = z.infer<typeof refinerVariantSchema>;

/** One held-out probe measurement: the harness in force at a training time, and its accuracy. */
export const probePointSchema = z.object({
  /** The iteration whose acceptance made this harness current (0: the seed harness). */
  iteration: z.number().int(),
  /** Training wall time (ms, the run's budget clock) from which this harness was in force. */
  elapsedMs: z.number(),
  /** Accuracy on the probe set (0–1). */
  accuracy: z.number(),
  harnessHash: z.string(),
  /**
   * Training rollouts and LLM calls spent through the end of `iteration` (cumulative, from the
   * run's journal: the spend that made this harness current). Absent when the run kept no
   * journal, and in a bench.json written before they were added.
   */
  rollouts: z.number().int().optional(),
  llmCalls: z.number().int().optional(),
});
export type ProbePoint = z.infer<typeof probePointSchema>;

/**
 * Held-out accuracy over training time, measured by the bench (never by the pipeline) on a fixed
 * probe set drawn from the held-out split: the same tasks for every arm of a world × seed.
 */
export const probeTrajectorySchema = z.object({
  tasks: z.number().int(),
  /** First point: the seed harness at 0 ms; then one point per change of the harness in force. */
  points: z.array(probePointSchema).min(1),
});
export type ProbeTrajectory = z.infer<typeof probeTrajectorySchema>;

/** One arm on one world × refiner variant × budget × seed: what it cost and what it produced. */
export const benchRunSchema = z.object({
  strategy: benchStrategySchema,
  world: z.string(),
  refiner: refinerVariantSchema,
  seed: z.number().int(),
  /** The budget in full-split evaluations, and the rollouts that makes on this world's train split. */
  budgetEvals: z.number(),
  budgetRollouts: z.number().int(),
  /** Why the strategy stopped (`budget:rollouts`, `no-failures`, `no-systematic-pattern`, …). */
  stoppedBy: z.string(),
  /** Training rollouts of the budget left unspent when it stopped (0 when it spent it all). */
  unspentRollouts: z.number().int(),
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
  trainTasks: z.number().int(),
  /** Accuracy of the final harness on the whole held-out split (the gate's measurement). */
  heldoutAccuracy: z.number(),
  heldoutTasks: z.number().int(),
  seedTrainAccuracy: z.number(),
  seedHeldoutAccuracy: z.number(),
  acceptedEdits: z.number().int(),
  /** Accepted edits that the ground truth shows to be model-specific accommodations or leaks. */
  accommodations: z.number().int(),
  /** Why each accommodation was counted (one line each), for the report. */
  accommodationReasons: z.array(z.string()),
  /** Accepted edits that are not accommodations but had no visible effect (see README). */
  ineffectiveEdits: z.number().int(),
  /** Train accuracy on each accepted step's batch, as the pipeline measured it (not a claim). */
  trajectory: z.array(trajectoryPointSchema),
  /** Held-out probe trajectory (null: the arm does no training, e.g. `sampling`). */
  probe: probeTrajectorySchema.nullable(),
  /** Mean purity of the patterns the run found (null when it found none). */
  patternPurity: z.number().nullable(),
  patternsFound: z.number().int(),
  /**
   * The world × seed's held-out ceiling from ground truth (src/bench/ceiling.ts: the best harness
   * the world allows), the final held-out accuracy as a share of it, and when the harness in
   * force first reached 90% and 95% of it (training wall time, rollouts, LLM calls; null: never).
   * Null in a bench.json written before they were added.
   */
  ceiling: z.number().nullable().default(null),
  ceilingShare: z.number().nullable().default(null),
  reach90: reachSchema.nullable().default(null),
  reach95: reachSchema.nullable().default(null),
  /**
   * Held-out tasks ground truth lists a systematic deficiency for under the seed harness (what
   * a run that accepted nothing left unfixed). Null in a bench.json written before it was added.
   */
  heldoutSystematicTasks: z.number().int().nullable().default(null),
});
export type BenchRun = z.infer<typeof benchRunSchema>;

/** The figures summarised per arm. */
export const benchFigures = [
  "wallMs",
  "totalWallMs",
  "rollouts",
  "unspentRollouts",
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
  "ceilingShare",
] as const;

/** Median and range of one figure over an arm's runs. */
export const spreadSchema = z.object({
  median: z.number(),
  min: z.number(),
  max: z.number(),
  n: z.number().int(),
});
export type Spread = z.infer<typeof spreadSchema>;

/** One arm at one budget and refiner variant, summarised over its worlds and seeds. */
export const armSummarySchema = z.object({
  strategy: benchStrategySchema,
  refiner: refinerVariantSchema,
  budgetEvals: z.number(),
  runs: z.number().int(),
  figures: z.record(z.string(), spreadSchema.nullable()),
  /** How many runs stopped for each reason. */
  stoppedBy: z.record(z.string(), z.number().int()),
});
export type ArmSummary = z.infer<typeof armSummarySchema>;

/** Left versus right on one scope (all worlds, or one world) at one budget and refiner variant. */
export const comparisonSchema = z.object({
  left: benchStrategySchema,
  right: benchStrategySchema,
  budgetEvals: z.number(),
  refiner: refinerVariantSchema,
  /** `all worlds` or a world name. */
  scope: z.string(),
  pairs: z.array(pairFiguresSchema),
  figures: comparisonFiguresSchema,
});
export type Comparison = z.infer<typeof comparisonSchema>;

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
/** The code a bench ran (`BenchCode` in src/bench/run-record.ts says what each field means). */
export const benchCodeSchema = z.object({
  version: z.string(),
  commit: z.string().optional(),
  dirty: z.boolean(),
  changes: z.string().optional(),
});

export const benchResultSchema = z.object({
  version: z.literal(2),
  date: z.string(),
  machine: machineSchema,
  settings: z.object({
    strategies: z.array(benchStrategySchema),
    seeds: z.array(z.number().int()),
    /** Budgets in full-split evaluations (rollouts = evaluations × train tasks of the world). */
    budgets: z.array(z.number()),
    /** Null: each world's own latency scale. */
    latencyScale: z.number().nullable(),
    concurrency: z.number().int(),
    maxIterations: z.number().int(),
    /** The agent's sampling temperature, the same for every arm. */
    temperature: z.number(),
    /** Most held-out tasks in a probe set (the whole split when it is smaller). */
    probeSize: z.number().int(),
    bootstrap: z.object({ resamples: z.number().int(), seed: z.number().int() }),
    /** Whether the decomposition arms ran (neutral refiner, Ecdysis without pipelining). */
    decomposition: z.boolean(),
  }),
  /** How the runs were made: the code, how many processes side by side, how many were reused. */
  execution: z
    .object({
      code: benchCodeSchema,
      /** Bench processes that made the runs side by side (each runs its own one after another). */
      processes: z.number().int().positive(),
      /** Runs recorded by an earlier bench in the same folder under the same key (`resume`). */
      reusedRuns: z.number().int().nonnegative(),
    })
    .optional(),
  worlds: z.array(benchWorldSchema),
  runs: z.array(benchRunSchema),
  arms: z.array(armSummarySchema),
  comparisons: z.array(comparisonSchema),
  /** Wall time of the whole bench (ms; from `startedAtMs` when given), so a re-run can be planned. */
  benchWallMs: z.number(),
});
export type BenchResult = z.infer<typeof benchResultSchema>;
