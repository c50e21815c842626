import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import type { SimModelServer } from "../eval/open-models.js";
import type { ProgressSink } from "../eval/progress.js";
import type { ModelCallEvent } from "./meter.js";
import type { RunMetadata } from "./result-schema.js";
import type { Models } from "./run-context.js";
import type { StagePort } from "./stage-port.js";
import type { Strategy } from "./strategy.js";

/** Options of runEvolve. */
export interface RunEvolveOptions {
  loaded: LoadedConfig;
  /** Defaults to the config's `evolve.strategy`. */
  strategy?: Strategy;
  outDir: string;
  /** Models to use instead of opening the configured ones (bench, tests). */
  models?: Models;
  progress?: ProgressSink;
  clock?: { now(): number };
  /** The LLM-backed stages (diagnose, notes, refine, reflect); the real ones by default. */
  stages?: StagePort;
  /** The agent adapter; by default the config's (`createAgentAdapter`). */
  adapter?: AgentAdapter;
  /** Wrap models with the on-disk call cache (default true). */
  callCache?: boolean;
  /**
   * The speed tricks (src/evolve/speed): on by default when the call cache is. Off, a run has
   * the same results, only slower.
   */
  speedups?: boolean;
  /** Test hook called after each stage is journaled (a crash injected here simulates a kill). */
  afterStage?: (stage: string) => void;
  /**
   * Secret values besides the configured ones (`configuredSecrets`: API keys named by
   * `apiKeyEnv`, the GitHub token), e.g. an Action input: forbidden in edits, scrubbed from records.
   */
  secrets?: string[];
  /** Environment the configured secrets are read from. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Serves `provider: sim` models when the models are opened here (src/sim `serveSimModel`). */
  simServer?: SimModelServer;
  /**
   * At most this many train and held-out tasks (`--limit`, `limitTasks`: deterministic, the
   * categories in turn). Part of the run key; the guard and the seal still see every task.
   */
  limit?: number;
  /**
   * The harness folder's path from where `git apply` runs (the repository root, `/`-separated):
   * harness.patch's file headers carry it. Default "": paths relative to the harness folder,
   * as result.json's `harness.patch` always is.
   */
  patchPrefix?: string;
  /** Recorded in result.json `run` (the version, the git commit); the times come from `clock`. */
  metadata?: Pick<RunMetadata, "ecdysisVersion" | "git">;
  /** Told each iteration's verdict in one line (`iteration 2: accepted (…)`), as it is reached. */
  onIteration?: (line: string) => void;
  /** Told of every model call, agent and refiner roles (live progress). */
  onCall?: (event: ModelCallEvent) => void;
  /**
   * Discard the journal of an earlier run in `outDir` and start over (`--restart`): the way out
   * when the inputs changed or the journal is damaged. Cached rollouts and calls are still reused.
   */
  restart?: boolean;
  /** Told of what a resume repaired or took over (a dropped journal line, a stale lock). */
  warn?: (message: string) => void;
  /**
   * Keep the folders a command harness's candidates ran from, in `<outDir>/candidates/<hash>`
   * (default: removed when the run ends).
   */
  keepCandidates?: boolean;
  /**
   * `finish`: the run was split into phases (docs/scale-out.md) and its measurement was made by
   * `--phase measure --shard I/N` jobs whose caches were merged into this one: what they
   * recorded spending counts as the measurement's spend. Default `all`: one process does it all.
   */
  phase?: "all" | "finish";
}
