import { z } from "zod";
import { strategyNames } from "../config/config-schema.js";
import { benchStrategySchema } from "./types.js";

const commaList = (value: string | string[]) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((item) => item.split(","))
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

/**
 * Default cap on iterations (proposals) per run: a safety net far above what any budget allows,
 * so that the budget or a strategy's own stopping rule ends every run (a cap below the budget
 * would stop the baseline early, as the 12-proposal cap of the first bench did).
 */
export const defaultMaxIterations = 1000;
/** Default budgets, in full-split evaluations of the train split (rollouts = evaluations × tasks). */
export const defaultBudgets = "5,15";
/** Default agent temperature (self-consistency's usual setting; see `temperature`). */
export const defaultTemperature = 0.7;
/** Default seeds: ten per world, so every median gets a bootstrap interval worth the name. */
export const defaultSeeds = "1,2,3,4,5,6,7,8,9,10";

const numberList = (what: string, check: (value: number) => boolean, rule: string) =>
  z
    .union([z.string(), z.array(z.union([z.number(), z.string()])), z.number()])
    .transform((value, context) => {
      const items =
        typeof value === "number"
          ? [String(value)]
          : commaList(Array.isArray(value) ? value.map(String) : value);
      const numbers = items.map(Number);
      if (numbers.length === 0 || numbers.some((item) => !check(item))) {
        context.addIssue({
          code: "custom",
          message: `${what} must be ${rule} separated by commas, got '${items.join(",")}'`,
        });
        return z.NEVER;
      }
      return [...new Set(numbers)];
    });

/**
 * Options of `ecdysis bench`, accepting the CLI's raw flag strings (`--world a,b --seeds 1,2,3
 * --strategies ecdysis,iterative`) as well as typed values. Without worlds, all bundled worlds run.
 */
export const benchOptionsSchema = z
  .object({
    /** Bundled world names or world file paths. Empty: every bundled world. */
    worlds: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .transform((value) => (value === undefined ? [] : commaList(value))),
    seeds: numberList("seeds", Number.isInteger, "integers").prefault(defaultSeeds),
    strategies: z
      .union([z.string(), z.array(z.string())])
      .default(strategyNames.join(","))
      .transform((value) => commaList(value))
      .pipe(z.array(benchStrategySchema).min(1)),
    /**
     * Budgets in full-split evaluations: a run on a world with N train tasks may spend
     * `budget × N` training rollouts, so a larger split gets a proportionally larger budget.
     * Every arm runs at every budget.
     */
    budgets: numberList("budgets", (value) => value > 0, "positive numbers")
      .prefault(defaultBudgets)
      .transform((values) => [...values].sort((a, b) => a - b)),
    /**
     * Factor on the sim's latency model; absent, each world's own `latency.scale` applies (the
     * bundled worlds model hundreds of ms per call, as hosted models take, scaled down so the
     * standard suite finishes in minutes while LLM time still dominates framework time).
     */
    latencyScale: z.coerce.number().min(0).optional(),
    concurrency: z.coerce.number().int().positive().max(256).default(8),
    /**
     * The agent's sampling temperature, the same for every arm. Above 0 the sim's per-sample
     * slips act (flakiness, sample-dependent slips): evaluations are noisy, as with a hosted
     * model sampled warm, and a majority vote has something to vote on. At 0 the sim is
     * deterministic and `sampling` is the seed harness.
     */
    temperature: z.coerce.number().min(0).max(2).default(defaultTemperature),
    /** `evolve.maxIterations` for every arm: a safety net only (see `defaultMaxIterations`). */
    maxIterations: z.coerce.number().int().positive().default(defaultMaxIterations),
    /** Most held-out tasks in the probe set of a world × seed (the whole split when smaller). */
    probeSize: z.coerce.number().int().positive().default(60),
    /** Bootstrap resamples per interval, and the seed of every interval's random stream. */
    bootstrapResamples: z.coerce.number().int().min(100).default(2000),
    bootstrapSeed: z.coerce.number().int().default(1),
    /**
     * Also run the decomposition at the largest budget: Ecdysis without its pipelining
     * (`ecdysis-serial`) on every world, and Ecdysis and iterative on every world with a neutral
     * refiner (worlds whose refiner is neutral already are not repeated).
     */
    decomposition: z
      .union([z.boolean(), z.enum(["true", "false"])])
      .default(false)
      .transform((value) => value === true || value === "true"),
    /**
     * Reuse the runs an earlier bench finished in the same folder under the same key (world,
     * seed, arm, refiner, budget, settings, probe tasks, Ecdysis version and commit): a crashed
     * bench resumes without redoing finished runs, and benches of disjoint seeds side by side
     * are assembled by one more pass. Runs made on a checkout with uncommitted changes are
     * never reused.
     */
    resume: z
      .union([z.boolean(), z.enum(["true", "false"])])
      .default(false)
      .transform((value) => value === true || value === "true"),
    /**
     * How many bench processes made the runs side by side (reported, not acted on; set by
     * `npm run bench -- --jobs N` for its assembly pass).
     */
    processes: z.coerce.number().int().positive().default(1),
    /** Epoch ms the whole bench started at, when an outer script split it (for `benchWallMs`). */
    startedAtMs: z.coerce.number().int().positive().optional(),
    /** Output folder for bench.json, bench.md and the per-run folders. */
    outDir: z.string().min(1),
  })
  .strict();
/** Validated bench options. */
export type BenchOptions = z.output<typeof benchOptionsSchema>;
/** Bench options as a caller (the CLI) passes them. */
export type BenchOptionsInput = z.input<typeof benchOptionsSchema>;
