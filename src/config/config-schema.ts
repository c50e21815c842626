import { z } from "zod";
import { modelConfigSchema } from "./model-config-schema.js";
import { agentEnvNamesSchema, sandboxConfigSchema } from "./sandbox-config.js";
import {
  ecdysisOptionsSchema,
  iterativeOptionsSchema,
  refuseMovedKeys,
} from "./strategy-options.js";
import { scorerSpecSchema } from "./task-schema.js";

export {
  type Capabilities,
  capabilitiesSchema,
  defaultApiKeyEnv,
  type ModelConfig,
  modelConfigSchema,
  modelQuirks,
  priceSchema,
  reservedBodyFields,
} from "./model-config-schema.js";

/** The globs a harness's refiner may edit when the config names none (`harness.editable`). */
export const defaultEditableGlobs: readonly string[] = ["harness.yaml", "*.md"];

/** What a budget bounds (`evolve.budget.scope`). */
const budgetScopes = ["training", "run"] as const;

export const budgetSchema = z
  .object({
    rollouts: z.number().int().positive().optional(),
    tokens: z.number().int().positive().optional(),
    costUsd: z.number().positive().optional(),
    wallMs: z.number().int().positive().optional(),
    /**
     * `training` (the default): the limits bound the search; the seed and final measurement on
     * both splits runs after it, outside them (counted in the cost). `run`: the limits bound the
     * whole run; the measurement's rollouts are kept free while training runs (and its tokens and
     * cost, projected from the rollouts so far), and a rollout limit too small for the
     * measurement alone is refused before anything runs.
     */
    scope: z.enum(budgetScopes).default("training"),
  })
  .strict();
export type Budget = z.infer<typeof budgetSchema>;

/** The built-in strategies (src/evolve/strategies), the one list every flag and input reads. */
export const strategyNames = ["ecdysis", "iterative", "sampling"] as const;
/** One of `strategyNames`. */
export const strategyNameSchema = z.enum(strategyNames);
/** The name of a built-in strategy. */
export type StrategyName = z.infer<typeof strategyNameSchema>;

/**
 * `evolve`: what every strategy shares — which one runs, its iteration cap, the budget — and
 * each strategy's own options in its own section (strategy-options.ts).
 */
export const evolveConfigSchema = z.preprocess(
  refuseMovedKeys,
  z
    .object({
      strategy: strategyNameSchema.default("ecdysis"),
      maxIterations: z.number().int().positive().default(4),
      ecdysis: ecdysisOptionsSchema.default(ecdysisOptionsSchema.parse({})),
      iterative: iterativeOptionsSchema.default(iterativeOptionsSchema.parse({})),
      budget: budgetSchema.default({ scope: "training" }),
    })
    .strict(),
);
export type EvolveConfig = z.infer<typeof evolveConfigSchema>;

export const gateConfigSchema = z
  .object({
    /** The head may be at most this much less accurate than the base (absolute, 0–1). */
    tolerance: z.number().min(0).max(1).default(0),
    /**
     * What passes: `better` — a held-out gain the paired one-sided McNemar test finds significant
     * at `alpha`; `not-worse` — no loss beyond `tolerance`. Unset: the evolve gate needs a higher
     * accuracy (`requireImprovement`), the pull-request gate no loss beyond the tolerance. The
     * gate's words always say which held: `better (p = …)`, `not worse (p = …, not significant)`.
     */
    require: z.enum(["better", "not-worse"]).optional(),
    /** Significance level of `better`. */
    alpha: z.number().gt(0).lt(1).default(0.05),
    /** Unset `require` only: the evolve gate needs a higher held-out accuracy than the seed's. */
    requireImprovement: z.boolean().default(true),
    statusContext: z.string().default("ecdysis/heldout"),
  })
  .strict();
export type GateConfig = z.infer<typeof gateConfigSchema>;

export const reportConfigSchema = z
  .object({
    /**
     * Keep the refiner's prompts and replies (prompts.jsonl beside result.json, scrubbed of
     * secrets), so report.html shows what each role call was shown. They hold train task text
     * and agent output, never held-out data.
     */
    keepPrompts: z.boolean().default(true),
  })
  .strict();
export type ReportConfig = z.infer<typeof reportConfigSchema>;

/** `ecdysis.yml`: the whole project configuration. Paths are relative to the config file. */
export const ecdysisConfigSchema = z
  .object({
    model: modelConfigSchema,
    /** Model for the refiner roles; defaults to `model`. */
    refiner: modelConfigSchema.optional(),
    /** Second model used to tell model-specific failures from harness deficiencies. */
    probe: modelConfigSchema.optional(),
    /** Model of the `llm_judge` scorer; defaults to `refiner` (then `model`). */
    judge: modelConfigSchema.optional(),
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
        /** Command harness: the OS sandbox (`auto`, `required`, `off`, or `{mode, read}`); src/config/sandbox-config.ts. */
        sandbox: sandboxConfigSchema.optional(),
        /** Command harness: names of the variables passed to the agent beyond its own (model endpoint, ECDYSIS_*). */
        env: agentEnvNamesSchema.optional(),
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
    /** What a run keeps for its reports (absent: the defaults; absent, it leaves the config hash as it was). */
    report: reportConfigSchema.optional(),
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
