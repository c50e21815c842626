import { z } from "zod";
import { strategyNames } from "../config/config-schema.js";
import { benchStrategySchema } from "./types.js";

const commaList = (value: string | string[]) =>
  (Array.isArray(value) ? value : [value])
    .flatMap((item) => item.split(","))
    .map((item) => item.trim())
    .filter((item) => item.length > 0);

/** Default iteration cap per run (see `maxIterations`). */
export const defaultMaxIterations = 12;
/** Default rollout budget per run, the same for every strategy. */
export const defaultBudgetRollouts = 600;

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
    seeds: z
      .union([z.string(), z.array(z.union([z.number(), z.string()])), z.number()])
      .default("1,2,3")
      .transform((value, context) => {
        const items =
          typeof value === "number"
            ? [String(value)]
            : commaList(Array.isArray(value) ? value.map(String) : value);
        const seeds = items.map(Number);
        if (seeds.length === 0 || seeds.some((seed) => !Number.isInteger(seed))) {
          context.addIssue({
            code: "custom",
            message: `seeds must be integers separated by commas, got '${items.join(",")}'`,
          });
          return z.NEVER;
        }
        return [...new Set(seeds)];
      }),
    strategies: z
      .union([z.string(), z.array(z.string())])
      .default(strategyNames.join(","))
      .transform((value) => commaList(value))
      .pipe(z.array(benchStrategySchema).min(1)),
    budgetRollouts: z.coerce.number().int().positive().default(defaultBudgetRollouts),
    /**
     * Factor on the sim's latency model; absent, each world's own `latency.scale` applies (the
     * bundled worlds model hundreds of ms per call, as hosted models take, scaled down so the
     * standard suite finishes in minutes while LLM time still dominates framework time).
     */
    latencyScale: z.coerce.number().min(0).optional(),
    concurrency: z.coerce.number().int().positive().max(256).default(8),
    /**
     * `evolve.maxIterations` for every strategy. High by default so that the shared rollout
     * budget (or a strategy's own stopping rule), not an iteration count, ends each run: an
     * iterative proposal is far smaller than an Ecdysis iteration, and capping both at the same
     * count would starve the baseline.
     */
    maxIterations: z.coerce.number().int().positive().default(defaultMaxIterations),
    /** Output folder for bench.json, bench.md and the per-run folders. */
    outDir: z.string().min(1),
  })
  .strict();
/** Validated bench options. */
export type BenchOptions = z.output<typeof benchOptionsSchema>;
/** Bench options as a caller (the CLI) passes them. */
export type BenchOptionsInput = z.input<typeof benchOptionsSchema>;
