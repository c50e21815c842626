import { z } from "zod";
import { scorerSpecSchema } from "./task-schema.js";

/** Price table entry, USD per million tokens. */
export const priceSchema = z
  .object({
    promptPerMTok: z.number().min(0).default(0),
    completionPerMTok: z.number().min(0).default(0),
  })
  .strict();

/**
 * A model endpoint. `provider: sim` starts the embedded simulated model (world file required);
 * `provider: openai` talks to any OpenAI-compatible base URL.
 */
export const modelConfigSchema = z
  .object({
    provider: z.enum(["sim", "openai"]).default("openai"),
    baseUrl: z.string().url().optional(),
    /** Name of the environment variable holding the key (never the key itself). */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/)
      .default("OPENAI_API_KEY"),
    model: z.string().min(1),
    temperature: z.number().min(0).max(2).default(0),
    maxTokens: z.number().int().positive().default(1024),
    /** World file for `provider: sim`, relative to the config file. */
    world: z.string().optional(),
    /** Server quirks to emulate (sim only): see src/sim/README.md. */
    quirks: z
      .array(z.enum(["fenced-json", "prose-json", "ignore-response-format", "no-native-tools"]))
      .default([]),
    price: priceSchema.default({ promptPerMTok: 0, completionPerMTok: 0 }),
    requestsPerMinute: z.number().positive().optional(),
    maxConcurrency: z.number().int().positive().default(8),
    timeoutMs: z.number().int().positive().default(120_000),
    maxRetries: z.number().int().min(0).max(10).default(4),
  })
  .strict()
  .superRefine((value, context) => {
    if (value.provider === "sim" && !value.world) {
      context.addIssue({
        code: "custom",
        path: ["world"],
        message: "'world' is required when provider is 'sim'",
      });
    }
    if (value.provider === "openai" && !value.baseUrl) {
      context.addIssue({
        code: "custom",
        path: ["baseUrl"],
        message: "'baseUrl' is required when provider is 'openai'",
      });
    }
  });
export type ModelConfig = z.infer<typeof modelConfigSchema>;

/** The globs a harness's refiner may edit when the config names none (`harness.editable`). */
export const defaultEditableGlobs: readonly string[] = ["harness.yaml", "*.md"];

export const budgetSchema = z
  .object({
    rollouts: z.number().int().positive().optional(),
    tokens: z.number().int().positive().optional(),
    costUsd: z.number().positive().optional(),
    wallMs: z.number().int().positive().optional(),
  })
  .strict();
export type Budget = z.infer<typeof budgetSchema>;

export const evolveConfigSchema = z
  .object({
    strategy: z.enum(["ecdysis", "iterative", "sampling"]).default("ecdysis"),
    /** Train tasks per iteration, stratified by category; the whole split when it is smaller. */
    batchSize: z.number().int().positive().default(60),
    maxIterations: z.number().int().positive().default(4),
    /** A pattern is systematic only with at least this support. */
    minSupport: z
      .object({
        tasks: z.number().int().min(1).default(3),
        categories: z.number().int().min(1).default(1),
      })
      .strict()
      .default({ tasks: 3, categories: 1 }),
    /** Re-samples of failing members to tell flakiness from reproducible failure. */
    resamples: z.number().int().min(0).max(8).default(1),
    /** Rounds the Skeptic may send the HMS back before it is dropped. */
    skepticRounds: z.number().int().min(0).max(5).default(2),
    /** Passing tasks re-run as a regression check during cheap validation. */
    regressionSample: z.number().int().min(0).default(12),
    /** One-sided significance level of the paired (McNemar) test on discordant tasks. */
    alpha: z.number().gt(0).lt(1).default(0.1),
    /**
     * Extra samples of every discordant task, under both harnesses, before the paired test: one
     * draw per task cannot tell a consistent fix from sampling noise when few tasks flip.
     */
    confirmSamples: z.number().int().min(0).max(8).default(2),
    /**
     * When a candidate breaks tasks that passed before, diagnose what it broke and refine a
     * follow-up change on top of it (one round) before giving the proposal up.
     */
    repairRegressions: z.boolean().default(true),
    /** Ecdysis: proposals a systematic pattern may get (rejected ones are shown to later attempts). */
    maxAttemptsPerPattern: z.number().int().min(1).default(3),
    /**
     * Iterative baseline: stop after this many proposals in a row without improvement. Unset (the
     * default): like GEPA-style search, run until the budget or maxIterations is spent.
     */
    patience: z.number().int().positive().optional(),
    /** Iterative baseline: failures shown to its reflector per proposal. */
    iterativeMinibatch: z.number().int().min(1).default(1),
    budget: budgetSchema.default({}),
  })
  .strict();
export type EvolveConfig = z.infer<typeof evolveConfigSchema>;

export const gateConfigSchema = z
  .object({
    /** The head may be at most this much less accurate than the base (absolute, 0–1). */
    tolerance: z.number().min(0).max(1).default(0),
    /** Require the evolved harness to beat the seed on held-out before a PR is opened. */
    requireImprovement: z.boolean().default(true),
    statusContext: z.string().default("ecdysis/heldout"),
  })
  .strict();
export type GateConfig = z.infer<typeof gateConfigSchema>;

/** `ecdysis.yml`: the whole project configuration. Paths are relative to the config file. */
export const ecdysisConfigSchema = z
  .object({
    model: modelConfigSchema,
    /** Model for the refiner roles; defaults to `model`. */
    refiner: modelConfigSchema.optional(),
    /** Second model used to tell model-specific failures from harness deficiencies. */
    probe: modelConfigSchema.optional(),
    harness: z
      .object({
        kind: z.enum(["builtin", "command"]).default("builtin"),
        dir: z.string().default("harness"),
        /** Globs (relative to `dir`) the refiner may edit. */
        editable: z
          .array(z.string().min(1))
          .min(1)
          .default([...defaultEditableGlobs]),
        /** Command harness: argv run per task with the task JSON on stdin. */
        command: z.array(z.string().min(1)).min(1).optional(),
        timeoutMs: z.number().int().positive().default(120_000),
      })
      .strict()
      .superRefine((value, context) => {
        if (value.kind === "command" && !value.command) {
          context.addIssue({
            code: "custom",
            path: ["command"],
            message: "'command' is required when kind is 'command'",
          });
        }
      }),
    tasks: z
      .object({
        train: z.string(),
        heldout: z.string(),
        scorer: scorerSpecSchema.default({ kind: "exact" }),
      })
      .strict(),
    concurrency: z.number().int().positive().max(256).default(8),
    /** Samples per task in an evaluation (pass = majority). */
    samples: z.number().int().positive().default(1),
    seed: z.number().int().default(1),
    cacheDir: z.string().default(".ecdysis/cache"),
    evolve: evolveConfigSchema.default(evolveConfigSchema.parse({})),
    gate: gateConfigSchema.default(gateConfigSchema.parse({})),
  })
  .strict();
export type EcdysisConfig = z.infer<typeof ecdysisConfigSchema>;

/** A config after loading: the parsed value plus where it came from (paths resolved absolute). */
export interface LoadedConfig {
  config: EcdysisConfig;
  /** Absolute path of the config file. */
  path: string;
  /** Absolute folder of the config file; every relative path in the config is resolved against it. */
  root: string;
  /** sha256 of the normalised config, used to refuse resuming a run under another config. */
  hash: string;
  /** 1-based line of each dotted field written in the file (`tasks.train` → 12), for errors. */
  lines?: Record<string, number>;
}
