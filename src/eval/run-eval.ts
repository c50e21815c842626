import {
  createAgentAdapter,
  decideSandbox,
  runWorkspace,
  type SandboxStatus,
} from "../agent/index.js";
import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import { configuredSecrets } from "../config/configured-secrets.js";
import { loadSplits } from "../config/split-overlap.js";
import type { Split, Task } from "../config/task-schema.js";
import { loadHarness } from "../harness/index.js";
import type { LoadedHarness } from "../harness/types.js";
import type { Downgrade } from "../llm/capabilities.js";
import { SecretRedactor } from "../safety/secrets.js";
import { buildEvalResult, emptyCost } from "./eval-result.js";
import { evaluate } from "./evaluate.js";
import { limitTasks } from "./limit-tasks.js";
import { type OpenModels, openModels, type SimModelServer } from "./open-models.js";
import type { ProgressSink } from "./progress.js";
import { RolloutCache } from "./rollout-cache.js";
import { rolloutCacheDir, rolloutParams } from "./rollout-params.js";
import { scorerForTasks } from "./scorers/create-scorer.js";
import { shardTasks } from "./shard-tasks.js";
import type { EvalResult, RolloutRecord } from "./types.js";

/** Options of `runEval`: what `ecdysis eval` and the Action's eval mode do. */
export interface RunEvalOptions {
  loaded: LoadedConfig;
  split: Split | "all";
  /** Harness folder to evaluate instead of the config's (e.g. a hand-edited copy). */
  harnessDir?: string;
  /** 0-based shard of the tasks. */
  shard?: { index: number; count: number };
  /** Samples per task; default the config's `samples`. */
  samples?: number;
  /** At most this many tasks per split: a deterministic subset over the categories (`limitTasks`), before sharding. */
  limit?: number;
  /** Already-open models (left open); by default they are opened and closed here. */
  models?: OpenModels;
  /** Agent adapter; by default the config's (`createAgentAdapter`). */
  adapter?: AgentAdapter;
  /**
   * What untrusted code the harness is, when it is (the Action's checkout of a pull request):
   * under `harness.sandbox: auto` it never runs unsandboxed. Absent: the user's own harness.
   */
  untrusted?: string;
  progress?: ProgressSink;
  signal?: AbortSignal;
  /** Which records to return (default all); every record still reaches `onRecord`. */
  keep?: (record: RolloutRecord) => boolean;
  /** Told of every record as it is scored (e.g. a `RecordsSpool`). */
  onRecord?: (record: RolloutRecord) => void;
  /** Secret values besides the configured ones (`configuredSecrets`), scrubbed from every record. */
  secrets?: string[];
  /**
   * Environment the configured secrets — and, when the models are opened here, the API keys —
   * are read from. Default process.env.
   */
  env?: Record<string, string | undefined>;
  /** Serves `provider: sim` models when the models are opened here (src/sim `serveSimModel`). */
  simServer?: SimModelServer;
}

/** Result files by name (`eval.json`; with split `all` also `eval-train.json`, `eval-heldout.json`) and all records. */
export interface RunEvalResult {
  results: Record<string, EvalResult>;
  records: RolloutRecord[];
  harness: LoadedHarness;
  /** Capability steps the endpoints forced (for the summary). */
  downgrades: Downgrade[];
  /** How the command harness ran: sandboxed or not, and the warning when not. */
  sandbox: SandboxStatus;
}

/**
 * Evaluates the configured (or given) harness on a split, or on both: loads tasks and harness
 * (failing before any model is opened when a file is invalid), shards, runs through the rollout
 * cache of the config, and returns results per split. With `all`, `eval.json` is the combined
 * result over both splits (split `all`).
 */
export async function runEval(options: RunEvalOptions): Promise<RunEvalResult> {
  const { loaded } = options;
  const { config } = loaded;
  const splits: Split[] = options.split === "all" ? ["train", "heldout"] : [options.split];
  const tasksBySplit = await tasksOfSplits(options, splits);
  const harness = await loadHarness({
    dir: options.harnessDir ?? config.harness.dir,
    kind: config.harness.kind,
    command: config.harness.command,
  });
  const sandbox = await decideSandbox({ loaded, untrusted: options.untrusted, env: options.env });
  const redactor = runRedactor(options);
  const models = options.models ?? (await openModels(loaded, modelOptions(options, redactor)));
  const workspace = runWorkspace(loaded);
  try {
    const adapter =
      options.adapter ??
      createAgentAdapter(loaded, { workspace, sandbox, gateway: models.gateway });
    const scorer = scorerForTasks(config.tasks.scorer, {
      root: loaded.root,
      judge: models.judge,
      file: loaded.path,
    });
    const cache = new RolloutCache(rolloutCacheDir(loaded));
    const params = rolloutParams(config.model);
    const results: Record<string, EvalResult> = {};
    const records: RolloutRecord[] = [];
    for (const split of splits) {
      const outcome = await evaluate({
        tasks: tasksBySplit.get(split) ?? [],
        harness,
        provider: models.agent,
        adapter,
        scorer,
        samples: options.samples ?? config.samples,
        concurrency: config.concurrency,
        cache,
        progress: options.progress,
        signal: options.signal,
        split,
        params,
        redactor,
        keep: options.keep,
        onRecord: options.onRecord,
      });
      results[splits.length > 1 ? `eval-${split}.json` : "eval.json"] = outcome.result;
      records.push(...outcome.records);
    }
    if (splits.length > 1)
      results["eval.json"] = combine(Object.values(results), harness.hash, models.agent.model);
    return { results, records, harness, downgrades: models.downgrades(), sandbox: sandbox.status };
  } finally {
    await workspace.close();
    if (!options.models) await models.close();
  }
}

/** The tasks of each split to run, limited and sharded as asked. */
async function tasksOfSplits(
  options: RunEvalOptions,
  splits: Split[],
): Promise<Map<Split, Task[]>> {
  // Both files are read whatever the split: overlapping splits are refused before any rollout.
  const loadedSplits = await loadSplits(options.loaded);
  const tasksBySplit = new Map<Split, Task[]>();
  for (const split of splits) {
    const tasks = limitTasks(loadedSplits[split], options.limit);
    tasksBySplit.set(split, options.shard ? shardTasks(tasks, options.shard) : tasks);
  }
  return tasksBySplit;
}

/** The run's secrets (the configured keys' values, the caller's): scrubbed from everything it keeps. */
function runRedactor(options: RunEvalOptions): SecretRedactor {
  return new SecretRedactor([
    ...configuredSecrets(options.loaded, options.env),
    ...(options.secrets ?? []),
  ]);
}

/**
 * How `eval` opens the config's models: keys from its environment, the replies of a command
 * harness's gateway (its own calls go through it) scrubbed of the run's secrets.
 */
function modelOptions(options: RunEvalOptions, redactor: SecretRedactor) {
  return {
    env: options.env,
    simServer: options.simServer,
    redact: (body: unknown) => redactor.json(body),
  };
}

/** One result over several splits run one after the other (costs add up, wall time too). */
function combine(parts: EvalResult[], harnessHash: string, model: string): EvalResult {
  const cost = emptyCost();
  for (const part of parts) {
    for (const field of Object.keys(cost) as (keyof typeof cost)[]) cost[field] += part.cost[field];
  }
  return buildEvalResult({
    split: "all",
    harnessHash,
    model,
    tasks: parts.flatMap((part) => part.tasks),
    cost,
    infraErrors: parts.reduce((sum, part) => sum + (part.infraErrors ?? 0), 0),
  });
}
