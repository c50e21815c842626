import path from "node:path";
import { z } from "zod";
import { createAgentAdapter, runWorkspace } from "../agent/create-agent-adapter.js";
import type { SandboxStatus } from "../agent/sandbox/sandbox-policy.js";
import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import { configuredSecrets } from "../config/configured-secrets.js";
import { openModels } from "../eval/open-models.js";
import type { ProgressSink } from "../eval/progress.js";
import { RolloutCache } from "../eval/rollout-cache.js";
import { guardedFiles } from "../harness/index.js";
import { candidateParseCheck } from "../harness/parse-check.js";
import type { LoadedHarness } from "../harness/types.js";
import type { HarnessWorkspace } from "../harness/workspace.js";
import { SecretRedactor } from "../safety/secrets.js";
import { BudgetTracker } from "./budget.js";
import { runEvaluations, wrapModels } from "./evaluation-setup.js";
import { evolveResult, writeFinalHarness, writeOutputs } from "./evolve-result.js";
import { buildGuardContext } from "./guard.js";
import { sealHeldout } from "./heldout-seal.js";
import type { Journal } from "./journal.js";
import { type LoopOutcome, runLoop } from "./loop.js";
import { type Measured, measureHarnesses, measurementSchema } from "./measurement.js";
import type { BudgetCoverage } from "./measurement-budget.js";
import type { ModelCallEvent } from "./meter.js";
import { readShardSpend, type SearchHandoff, writeSearchHandoff } from "./phase-files.js";
import { PromptLog } from "./prompt-log.js";
import type { EvolveResult, RunMetadata } from "./result-schema.js";
import type { Models, RunContext } from "./run-context.js";
import { loadInputs, type RunInputs } from "./run-inputs.js";
import { startRun } from "./run-start.js";
import { openWatchedStrategy } from "./silent-end.js";
import { realStages, type StagePort } from "./stage-port.js";
import { strategyByName } from "./strategies/index.js";
import type { Strategy, StrategyRun } from "./strategy.js";

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

/** A run opened: its journal, budget, inputs, models and the loop's context. */
interface OpenRun {
  journal: Journal;
  budget: BudgetTracker;
  redactor: SecretRedactor;
  seed: LoadedHarness;
  heldout: RunContext["train"];
  context: RunContext;
  measure: (split: "train" | "heldout") => RunContext["evaluate"];
  background: Promise<unknown>[];
  /** How the command harness ran (result.json's `sandbox`). */
  sandbox: SandboxStatus;
}

/** A run whose search is done: what its measurement and outputs need. */
interface Searched {
  options: RunEvolveOptions;
  strategy: Strategy;
  strategyRun: StrategyRun;
  run: OpenRun;
  outcome: LoopOutcome;
  runKey: string;
  models: Models;
  prompts?: PromptLog;
  startedAt: string;
  clock: { now(): number };
  coverage: BudgetCoverage;
}

/**
 * Runs a strategy on the train split, then the held-out gate (seed versus final harness on the
 * held-out split, whose records no role ever sees), and writes into `outDir`: result.json
 * (`evolveResultSchema`), harness/ (the evolved files), harness.patch and journal.jsonl; its
 * callers render the reports. Re-running into the same folder with the same config resumes:
 * finished stages are replayed.
 */
export function runEvolve(options: RunEvolveOptions): Promise<EvolveResult> {
  return searchThen(options, finishRun);
}

/**
 * The search phase alone (`ecdysis evolve --phase search`): the strategy's loop, journaled as in
 * a whole run, then the final harness (sealed, in `harness/`) and `search.json` for the measure
 * shards; no measurement, no result.json. A whole run into the same folder replays it.
 */
export function runEvolveSearch(options: RunEvolveOptions): Promise<SearchHandoff> {
  return searchThen(options, async (searched) => {
    const { run, outcome, options: given } = searched;
    await searched.prompts?.settled();
    await writeFinalHarness({
      outDir: given.outDir,
      seed: run.seed,
      finalHarness: outcome.finalHarness,
      guard: run.context.guard,
    });
    const samples = searched.strategyRun.finalSamples ?? given.loaded.config.samples;
    const handoff: SearchHandoff = {
      schemaVersion: 1,
      runKey: searched.runKey,
      seedHash: run.seed.hash,
      finalHash: outcome.finalHarness.hash,
      finalSamples: samples,
    };
    await writeSearchHandoff(given.outDir, handoff);
    return handoff;
  });
}

/**
 * Opens the run (inputs, lock, journal, models, workspace, prompt log), runs the strategy's loop
 * and hands the searched run to `then`; everything opened is closed whatever happens.
 */
async function searchThen<T>(
  options: RunEvolveOptions,
  then: (searched: Searched) => Promise<T>,
): Promise<T> {
  const { loaded } = options;
  const strategy = options.strategy ?? strategyByName(loaded.config.evolve.strategy);
  const clock = options.clock ?? { now: () => Date.now() };
  const startedAt = new Date(clock.now()).toISOString();
  const budget = new BudgetTracker(loaded.config.evolve.budget, () => clock.now());
  const redactor = runRedactor(options);
  // Inputs first: a bad or overlapping split is refused before the journal is written.
  const inputs = await loadInputs(loaded, options);
  const { journal, release, coverage, runKey } = await startRun({
    ...options,
    strategy,
    inputs,
    ecdysisVersion: options.metadata?.ecdysisVersion,
    budget,
    redact: (value) => redactor.json(value),
    now: () => clock.now(),
  });
  const opened = await openOwnModels(options, release, redactor);
  // Every command-harness candidate runs from its own folder here (seed, validation, final).
  const workspace = runWorkspace(loaded);
  try {
    // Inside the try: a prompt log that cannot open still releases the lock and the models.
    const prompts = await PromptLog.open({
      outDir: options.outDir,
      fresh: journal.finished().length === 0,
      keep: loaded.config.report?.keepPrompts ?? true,
      redactor,
    });
    const models = options.models ?? (opened as Models);
    const run = openRun({ options, journal, budget, redactor, models, inputs, workspace, prompts });
    const { strategyRun, outcome } = await searchLoop(strategy, run, options.onIteration);
    return await then({
      options,
      strategy,
      strategyRun,
      run,
      outcome,
      runKey,
      models,
      prompts,
      startedAt,
      clock,
      coverage,
    });
  } finally {
    const keepIn = options.keepCandidates ? path.join(options.outDir, "candidates") : undefined;
    await workspace.close({ keepIn });
    await opened?.close();
    await release();
  }
}

/** The strategy opened on the run and its loop run to a stop; background work awaited. */
async function searchLoop(
  strategy: Strategy,
  run: OpenRun,
  onIteration: RunEvolveOptions["onIteration"],
) {
  const { strategyRun, scope } = openWatchedStrategy(strategy, run.context, onIteration);
  try {
    const outcome = await runLoop({
      run: strategyRun,
      context: run.context,
      scope,
      seed: run.seed,
    });
    return { strategyRun, outcome };
  } finally {
    await Promise.all(run.background);
  }
}

/** The run's secrets: the configured ones and those the caller adds. */
function runRedactor(options: RunEvolveOptions): SecretRedactor {
  return new SecretRedactor([
    ...configuredSecrets(options.loaded, options.env),
    ...(options.secrets ?? []),
  ]);
}

/**
 * The models of the config (and, for a command harness, their gateway, keeping its replies with
 * the call cache and scrubbed of the run's secrets), unless the caller brought its own; the locks
 * go if they fail to open.
 */
async function openOwnModels(
  options: RunEvolveOptions,
  release: () => Promise<void>,
  redactor: SecretRedactor,
) {
  if (options.models) return undefined;
  const redact = (body: unknown) => redactor.json(body);
  const opened = openModels(options.loaded, {
    env: options.env,
    gatewayCache: options.callCache ?? true,
    redact,
  });
  return opened.catch(async (error) => {
    await release();
    throw error;
  });
}

/**
 * After the loop: the seed and final harnesses measured (outside the training budget), result.json
 * built and scrubbed, the kept prompts flushed, and the outputs written.
 */
async function finishRun(searched: Searched): Promise<EvolveResult> {
  const { options, run, outcome } = searched;
  const { loaded } = options;
  const samples = searched.strategyRun.finalSamples ?? loaded.config.samples;
  const measured = await measureStage(searched, samples);
  // Everything but the measurement, replayed stages included.
  const training = run.budget.training();
  const result = run.redactor.json(
    evolveResult({
      loaded,
      strategy: searched.strategy,
      model: run.context.models.agent.model,
      seed: run.seed,
      outcome,
      measured,
      budget: run.budget,
      training,
      coverage: searched.coverage,
      downgrades: searched.models.downgrades?.() ?? [],
      sandbox: run.sandbox,
      metadata: {
        startedAt: searched.startedAt,
        finishedAt: new Date(searched.clock.now()).toISOString(),
        ...options.metadata,
        ...(options.limit === undefined ? {} : { limit: options.limit }),
      },
    }),
  );
  await searched.prompts?.settled();
  await writeOutputs({
    outDir: options.outDir,
    result,
    seed: run.seed,
    finalHarness: outcome.finalHarness,
    guard: run.context.guard,
    redactor: run.redactor,
    train: run.context.train,
    measured,
    cache: new RolloutCache(path.resolve(loaded.root, loaded.config.cacheDir, "rollouts")),
    patchPrefix: options.patchPrefix,
  });
  return result;
}

const measuredSchema = z.tuple([
  measurementSchema,
  measurementSchema,
  measurementSchema,
  measurementSchema,
]);

/**
 * The seed and final measurement, one journal stage (its spend is the measurement's, not
 * training's, and is not counted twice on resume). In the `finish` phase the rollouts were run
 * by the measure shards and are cache hits here: what the shards recorded spending is added, so
 * the run's cost is what a single process would have counted.
 */
function measureStage(searched: Searched, samples: number): Promise<Measured> {
  const { options, run, outcome, runKey } = searched;
  const { loaded } = options;
  return run.journal.stage(
    "final/measure",
    async () => {
      if (options.phase === "finish") {
        const cacheDir = path.resolve(loaded.root, loaded.config.cacheDir);
        const { spend, shards } = await readShardSpend({ cacheDir, runKey });
        run.budget.add({ ...spend, wallMs: 0 });
        options.warn?.(
          shards.length
            ? `measure shards found: ${shards.join(", ")}`
            : "no measure shard recorded this run: the measurement runs here",
        );
      }
      return measureHarnesses({
        evaluate: run.measure,
        tasks: { train: run.context.train, heldout: run.heldout },
        seed: run.seed,
        final: outcome.finalHarness,
        samples: { seed: loaded.config.samples, final: samples },
      });
    },
    { schema: measuredSchema, measurement: true },
  );
}

function openRun(input: {
  options: RunEvolveOptions;
  journal: Journal;
  budget: BudgetTracker;
  redactor: SecretRedactor;
  models: Models;
  inputs: RunInputs;
  workspace: HarnessWorkspace;
  /** Keeps the refiner's prompts (prompts.jsonl); absent with `report.keepPrompts: false`. */
  prompts?: PromptLog;
}): OpenRun {
  const { options, journal, budget, redactor, workspace } = input;
  const { loaded } = options;
  const { config } = loaded;
  const { seed, splits, train, heldout } = input.inputs;
  const callCache = options.callCache ?? true;
  const { onCall } = options;
  const models = wrapModels({ models: input.models, loaded, budget, callCache, redactor, onCall });
  const evaluations = runEvaluations({
    loaded,
    models,
    budget,
    adapter:
      options.adapter ??
      createAgentAdapter(loaded, {
        workspace,
        sandbox: input.inputs.sandbox,
        gateway: input.models.gateway,
      }),
    progress: options.progress,
    redactor,
    onCall,
  });
  const { background, start } = backgroundWork(budget);
  const context: RunContext = {
    config,
    train,
    heldoutSize: heldout.length,
    guard: runGuard({ loaded, splits, redactor, seed }),
    // The strategy's view: every role call and stage door checked against the held-out split
    // (the LLM judge of the evaluations keeps the unsealed refiner).
    ...sealHeldout({
      stages: options.stages ?? realStages,
      // Prompts are logged inside the seal: only calls it let through are kept, never the judge's.
      models: withPromptLog(models, input.prompts),
      evaluate: evaluations({ enforce: true, split: "train" }),
      train,
      heldout: splits.heldout,
      seedHarness: seed,
    }),
    stage: (name, work, schema) => journal.stage(name, work, { schema }),
    background: start,
    speedups: callCache && (options.speedups ?? true),
    // A command harness's edited code is parsed in the folder it would run from, before it runs.
    ...(config.harness.kind === "command" && { checkCandidate: candidateParseCheck(workspace) }),
    exhausted: () => budget.exceeded(),
    rolloutsLeft: () => budget.rolloutsLeft(),
    elapsedMs: () => budget.snapshot().wallMs,
  };
  // The budget bounds training; measuring the seed and final harnesses is outside it (but counted in cost).
  const measure = (split: "train" | "heldout") => evaluations({ enforce: false, split });
  const sandbox = input.inputs.sandbox.status;
  return { journal, budget, redactor, seed, heldout, context, measure, background, sandbox };
}

/**
 * The guard context of a run: both splits (leak checks), the configured secret values, and the
 * seed harness's files (what the seed already says is no evidence of a copied task).
 */
function runGuard(input: {
  loaded: LoadedConfig;
  splits: RunInputs["splits"];
  redactor: SecretRedactor;
  seed: LoadedHarness;
}): RunContext["guard"] {
  const { loaded, splits, redactor, seed } = input;
  return {
    ...buildGuardContext({ loaded, train: splits.train, heldout: splits.heldout }),
    secretValues: [...redactor.values],
    seedFiles: guardedFiles(seed),
  };
}

/** The models with the refiner's calls kept in the prompt log (when the run keeps one). */
function withPromptLog(models: Models, prompts: PromptLog | undefined): Models {
  return prompts ? { ...models, refiner: prompts.provider(models.refiner) } : models;
}

/**
 * Work started ahead of the step that needs it, outside every running stage (so only a stage of
 * its own records its spend); the run awaits `background`, whatever its outcome.
 */
function backgroundWork(budget: BudgetTracker) {
  const background: Promise<unknown>[] = [];
  const start = <T>(work: () => Promise<T>): Promise<T> => {
    const started = budget.detached(work);
    background.push(started.catch(() => undefined));
    return started;
  };
  return { background, start };
}
