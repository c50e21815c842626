import type { ActionCore } from "./action-core.js";
import type { ActionOptions } from "./action-options.js";
import type { ArtifactUploader } from "./artifact.js";
import type { CacheService } from "./cache.js";
import type { RunContext } from "./context.js";
import type { Git } from "./git.js";
import type { GitHubClient } from "./github-client.js";
import type { SecretScrubber } from "./secrets.js";

/** What every mode gets from the entry: validated options, the run context and its services. */
export interface ModeContext {
  engine: ActionCore;
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
  cacheService?: CacheService;
  uploader?: ArtifactUploader;
}

/** What a mode hands back: outputs to set, summary text, notes, and a failure to report. */
export interface ModeResult {
  outputs: Record<string, string>;
  summaryMarkdown: string;
  notes: string[];
  /** When set the step fails with this text (after outputs and summary are written). */
  failure?: string;
}

/** Accuracy as an output string (four decimals). */
export function formatAccuracy(value: number): string {
  return value.toFixed(4);
}
