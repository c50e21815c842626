import path from "node:path";
import { createAgentAdapter, runWorkspace } from "../agent/create-agent-adapter.js";
import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import { configuredSecrets } from "../config/configured-secrets.js";
import { InputError } from "../errors/input-error.js";
import { openModels, type SimModelServer } from "../eval/open-models.js";
import type { ProgressSink } from "../eval/progress.js";
import { shardTasks } from "../eval/shard-tasks.js";
import { loadHarness } from "../harness/load-harness.js";
import { SecretRedactor } from "../safety/secrets.js";
import { BudgetTracker, type Spend } from "./budget.js";
import { runEvaluations, wrapModels } from "./evaluation-setup.js";
import { type Measured, measureHarnesses } from "./measurement.js";
import type { ModelCallEvent } from "./meter.js";
import { readSearchHandoff, type SearchHandoff, writeShardSpend } from "./phase-files.js";
import type { Models } from "./run-context.js";
import { loadInputs } from "./run-inputs.js";
import { runKeyOf, runKeyParts } from "./run-key.js";
import { strategyByName } from "./strategies/index.js";

/** What one measure shard did. */
export interface MeasureShardOutcome {
  handoff: SearchHandoff;
  /** Seed train, seed held-out, final train, final held-out — on this shard's tasks only. */
  measured: Measured;
  /** The uncached work it did (also recorded in the cache folder for the finish). */
  spend: Spend;
}

/** Options of `runMeasureShard`. */
export interface MeasureShardOptions {
  loaded: LoadedConfig;
  /** The search's run folder (`search.json`, `harness/`); nothing is written into it. */
  outDir: string;
  /** 0-based shard. */
  shard: { index: number; count: number };
  /** The search's `--limit`. */
  limit?: number;
  /** Models to use instead of opening the configured ones (tests). */
  models?: Models;
  adapter?: AgentAdapter;
  progress?: ProgressSink;
  onCall?: (event: ModelCallEvent) => void;
  env?: Record<string, string | undefined>;
  /** Serves `provider: sim` models when the models are opened here (src/sim `serveSimModel`). */
  simServer?: SimModelServer;
  secrets?: string[];
  /** Part of the run key the search was written under. */
  ecdysisVersion?: string;
  clock?: { now(): number };
}

/**
 * One shard of a split run's measurement (`ecdysis evolve --phase measure --shard I/N`): the
 * seed and final harnesses of a finished search (`search.json` and `harness/` in `outDir`) on
 * this shard's train and held-out tasks (`shardTasks`: by a hash of the task id, so the shards
 * partition both splits whatever their number), through the config's rollout and call caches.
 * What it spent is recorded beside its rollouts in the cache folder; `--phase finish` on the
 * merged caches finds every rollout done and counts that spend. Writes nothing into `outDir`
 * and takes no lock: shards may run side by side on one folder.
 */
export async function runMeasureShard(options: MeasureShardOptions): Promise<MeasureShardOutcome> {
  const { loaded } = options;
  const handoff = await readSearchHandoff(options.outDir);
  const inputs = await loadInputs(loaded, options);
  await checkHandoff({ ...options, handoff, inputs });
  const final = await loadFinalHarness(loaded, options.outDir, handoff);
  const clock = options.clock ?? { now: () => Date.now() };
  const budget = new BudgetTracker({}, () => clock.now());
  const opened = options.models
    ? undefined
    : await openModels(loaded, {
        env: options.env,
        simServer: options.simServer,
        gatewayCache: true,
      });
  const workspace = runWorkspace(loaded);
  try {
    const evaluations = shardEvaluations({
      options,
      budget,
      models: options.models ?? (opened as Models),
      adapter:
        options.adapter ??
        createAgentAdapter(loaded, {
          workspace,
          sandbox: inputs.sandbox,
          gateway: (options.models ?? (opened as Models)).gateway,
        }),
    });
    const { value: measured, spend } = await budget.measure(() =>
      measureHarnesses({
        evaluate: (split) => evaluations({ enforce: false, split }),
        tasks: {
          train: shardTasks(inputs.train, options.shard),
          heldout: shardTasks(inputs.heldout, options.shard),
        },
        seed: inputs.seed,
        final,
        samples: { seed: loaded.config.samples, final: handoff.finalSamples },
      }),
    );
    const cacheDir = path.resolve(loaded.root, loaded.config.cacheDir);
    await writeShardSpend({ cacheDir, runKey: handoff.runKey, shard: options.shard, spend });
    return { handoff, measured, spend };
  } finally {
    await workspace.close();
    await opened?.close();
  }
}

/** The shard's evaluations, set up as a whole run's are: call cache inside, meter outside. */
function shardEvaluations(input: {
  options: MeasureShardOptions;
  budget: BudgetTracker;
  models: Models;
  adapter: AgentAdapter;
}) {
  const { options, budget } = input;
  const { loaded, onCall } = options;
  const redactor = new SecretRedactor([
    ...configuredSecrets(loaded, options.env),
    ...(options.secrets ?? []),
  ]);
  const models = wrapModels({
    models: input.models,
    loaded,
    budget,
    callCache: true,
    redactor,
    onCall,
  });
  return runEvaluations({
    loaded,
    models,
    budget,
    adapter: input.adapter,
    progress: options.progress,
    redactor,
    onCall,
  });
}

/** The search's final harness from `<outDir>/harness`, checked against its hash in search.json. */
async function loadFinalHarness(loaded: LoadedConfig, outDir: string, handoff: SearchHandoff) {
  const dir = path.join(outDir, "harness");
  const { kind, command } = loaded.config.harness;
  const final = await loadHarness({ dir, kind, command });
  if (final.hash !== handoff.finalHash)
    throw new InputError(
      dir,
      `holds harness ${final.hash.slice(0, 12)}, but the search ended with ${handoff.finalHash.slice(0, 12)}: download the search job's whole folder again`,
    );
  return final;
}

/**
 * The search must have run on these very inputs (config, strategy, --limit, seed harness, task
 * files, models, scorer, Ecdysis version): otherwise its final harness and this shard's tasks
 * would belong to different runs. Refused naming the way out.
 */
async function checkHandoff(input: {
  loaded: LoadedConfig;
  outDir: string;
  limit?: number;
  ecdysisVersion?: string;
  handoff: SearchHandoff;
  inputs: Awaited<ReturnType<typeof loadInputs>>;
}): Promise<void> {
  const parts = await runKeyParts({
    loaded: input.loaded,
    strategy: strategyByName(input.loaded.config.evolve.strategy).name,
    limit: input.limit,
    seed: input.inputs.seed,
    splits: input.inputs.splits,
    ecdysisVersion: input.ecdysisVersion,
  });
  if (runKeyOf(parts) !== input.handoff.runKey)
    throw new InputError(
      path.join(input.outDir, "search.json"),
      "was written by a search of other inputs (config, --limit, seed harness, task files, models, scorer or Ecdysis version differ): give every phase the same config and flags",
    );
}
