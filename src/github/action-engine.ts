import { z } from "zod";
import { strategyNameSchema } from "../config/config-schema.js";

/** The model endpoint the Action inputs override in the loaded config (all optional). */
export const llmOverridesSchema = z.object({
  baseUrl: z.string().url().optional(),
  apiKey: z.string().optional(),
  model: z.string().min(1).optional(),
});
export type LlmOverrides = z.infer<typeof llmOverridesSchema>;

/** Budget and loop overrides from the Action inputs. */
export const evolveOverridesSchema = z.object({
  budgetRollouts: z.number().int().positive().optional(),
  budgetCostUsd: z.number().positive().optional(),
  maxIterations: z.number().int().positive().optional(),
  strategy: strategyNameSchema.optional(),
  /** Agent rollouts in flight, one limit for all the run's measurement work (config `concurrency`). */
  concurrency: z.number().int().positive().optional(),
});
export type EvolveOverrides = z.infer<typeof evolveOverridesSchema>;

/** What an evolve run hands back to the Action: enough to commit, open a PR and report. */
export const evolveOutcomeSchema = z.object({
  /** Run id written into the commit trailer and the PR metadata block. */
  runId: z.string().min(1),
  baselineHeldoutAccuracy: z.number().min(0).max(1),
  finalHeldoutAccuracy: z.number().min(0).max(1),
  /** The final harness passed the held-out gate of the config (only then is a PR opened). */
  gatePassed: z.boolean(),
  /** Absolute folder of the harness in the checkout (what the evolved files replace). */
  targetHarnessDir: z.string().min(1),
  /** Absolute folder holding every file of the evolved harness. */
  evolvedHarnessDir: z.string().min(1),
  /** Absolute path of the Markdown report. */
  reportPath: z.string().min(1),
  /** Commit status context (config `gate.statusContext`). */
  statusContext: z.string().min(1),
  prTitle: z.string().min(1),
  /** PR body from src/report/pr-body.ts, already under GitHub's size limit. */
  prBody: z.string(),
  /** Markdown for the job summary. */
  summaryMarkdown: z.string(),
  /** Absolute folder holding result.json, reports and traces (uploaded as the artifact). */
  outDir: z.string().min(1),
  /** Why the run could not do its job (the agent or the refiner never answered): the Action fails with it. */
  failure: z.string().optional(),
});
export type EvolveOutcome = z.infer<typeof evolveOutcomeSchema>;

/** What a search or measure phase of a split evolve hands back (docs/scale-out.md). */
export const evolvePhaseOutcomeSchema = z.object({
  /** Uncached agent rollouts a measure shard ran, and rollouts it found in the cache. */
  rolloutsRun: z.number().int().min(0).optional(),
  rolloutsCached: z.number().int().min(0).optional(),
  /** Markdown for the job summary (what was done, what runs next). */
  summaryMarkdown: z.string(),
  /** Why the phase did not do its job (the search heard nothing usable): the step fails. */
  failure: z.string().optional(),
});
export type EvolvePhaseOutcome = z.infer<typeof evolvePhaseOutcomeSchema>;

/** Verdict of the held-out gate of a PR. */
export const gateOutcomeSchema = z.object({
  verdict: z.enum(["pass", "fail", "error"]),
  baseAccuracy: z.number().min(0).max(1),
  headAccuracy: z.number().min(0).max(1),
  /** One line for the commit status (trimmed to 140 characters by the Action). */
  description: z.string(),
  statusContext: z.string().min(1),
  /** Sticky comment body from src/report/gate-comment.ts (without the marker). */
  commentBody: z.string(),
  summaryMarkdown: z.string(),
  reportPath: z.string().min(1),
  outDir: z.string().min(1),
});
export type GateOutcome = z.infer<typeof gateOutcomeSchema>;

/** Result of a plain evaluation of the current harness on the held-out split. */
export const evalOutcomeSchema = z.object({
  accuracy: z.number().min(0).max(1),
  n: z.number().int().min(0),
  summaryMarkdown: z.string(),
  reportPath: z.string().min(1),
  outDir: z.string().min(1),
});
export type EvalOutcome = z.infer<typeof evalOutcomeSchema>;

/** What the Action needs to know about a config before running it. */
export interface ConfigFacts {
  /** Absolute harness folder the config points at. */
  harnessDir: string;
  /** Absolute rollout cache folder (restored and saved with @actions/cache). */
  cacheDir: string;
  configHash: string;
  /** Content hash of the harness folder as it is now. */
  harnessHash: string;
  /** Absolute paths of the task files the config names (train, held-out). */
  taskFiles: string[];
  statusContext: string;
}

/**
 * The engine as the Action sees it: three verbs over the stages in src/config, src/eval,
 * src/evolve and src/report. The real one is `realEngine()`; tests inject a fake through `run()`.
 */
export interface ActionEngine {
  /** Facts of a config (harness folder, cache folder and keys), read before any run. */
  describe(options: { configPath: string }): Promise<ConfigFacts>;
  evolve(options: {
    configPath: string;
    outDir: string;
    llm: LlmOverrides;
    overrides: EvolveOverrides;
    /** Id of this run (commit trailer, PR metadata). */
    runId: string;
    /** Link to the workflow run, where the artifact with the full report lives. */
    runUrl?: string;
    /**
     * `finish`: the run was split into phases; `outDir` holds the search's folder and the cache
     * the measure shards' merged rollouts, so the measurement runs none. Default `all`.
     */
    phase?: "all" | "finish";
  }): Promise<EvolveOutcome>;
  /**
   * One phase of a split evolve, the core `ecdysis evolve --phase` runs: `search` (the loop,
   * writing `outDir`) or `measure` (shard `shard` of the seed and final measurement, into the
   * rollout cache; `outDir` is the search's folder).
   */
  evolvePhase(options: {
    configPath: string;
    outDir: string;
    llm: LlmOverrides;
    overrides: EvolveOverrides;
    phase: "search" | "measure";
    /** 0-based shard, for `measure`. */
    shard?: { index: number; count: number };
  }): Promise<EvolvePhaseOutcome>;
  /**
   * Compare two harness folders on the held-out split of `configPath`. The config (and with it
   * the tasks, scorer and thresholds) is the base branch's copy; `headHarnessDir` is the PR's.
   */
  gate(options: {
    configPath: string;
    baseHarnessDir: string;
    headHarnessDir: string;
    /**
     * Project root the head harness runs in (a command harness's `ECDYSIS_PROJECT_ROOT`): a
     * folder without the base's task files, so the PR's code is not handed the held-out answers.
     */
    headProjectRoot?: string;
    outDir: string;
    llm: LlmOverrides;
    /** Overrides the config's `concurrency`. */
    concurrency?: number;
    runUrl?: string;
  }): Promise<GateOutcome>;
  eval(options: {
    configPath: string;
    outDir: string;
    llm: LlmOverrides;
    /** Overrides the config's `concurrency`. */
    concurrency?: number;
  }): Promise<EvalOutcome>;
}
