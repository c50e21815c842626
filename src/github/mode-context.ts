import type { ActionEngine, EvolveOverrides, LlmOverrides } from "./action-engine.js";
import type { ActionOptions } from "./action-options.js";
import type { ArtifactUploader } from "./artifact.js";
import type { CacheService } from "./cache.js";
import type { RunContext } from "./context.js";
import type { Git } from "./git.js";
import type { GitHubClient } from "./github-client.js";
import type { Ticker } from "./periodic-save.js";
import type { RunReport } from "./run-report.js";
import type { SecretScrubber } from "./secrets.js";

export { formatAccuracy } from "./run-report.js";

/** The model inputs (`base-url`, `api-key`, `model`) as the engine takes them. */
export function llmOverrides(options: ActionOptions): LlmOverrides {
  return { baseUrl: options["base-url"], apiKey: options["api-key"], model: options.model };
}

/** The budget and loop inputs of an evolve run (whole or one phase) as the engine takes them. */
export function evolveOverrides(options: ActionOptions): EvolveOverrides {
  return {
    budgetRollouts: options["budget-rollouts"],
    budgetCostUsd: options["budget-cost-usd"],
    maxIterations: options["max-iterations"],
    strategy: options.strategy,
    concurrency: options.concurrency,
  };
}

/** What every mode gets from the entry: validated options, the run context and its services. */
export interface ModeContext {
  engine: ActionEngine;
  options: ActionOptions;
  run: RunContext;
  /** Absent when no `github-token` was given (dry runs and eval need none). */
  client?: GitHubClient;
  git: Git;
  scrubber: SecretScrubber;
  /** Absolute path of the config in the checkout. */
  configPath: string;
  /** Folder for this run's reports and traces. */
  outDir: string;
  /** Folder for scratch copies (removed when the run ends; never in the workspace). */
  scratchDir: string;
  /** Where the mode writes outputs, notes and problems as they become known. */
  report: RunReport;
  cacheService?: CacheService;
  uploader?: ArtifactUploader;
  /** Aborted on SIGINT/SIGTERM (reason: an InterruptedError): the engine is left, the cache saved. */
  signal?: AbortSignal;
  /** Ticks the periodic rollout-cache saves (default a timer of `cache-save-minutes`; tests tick by hand). */
  ticker?: Ticker;
}
