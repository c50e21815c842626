import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createAgentAdapter, runWorkspace } from "../agent/create-agent-adapter.js";
import type { SandboxStatus } from "../agent/sandbox/sandbox-policy.js";
import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import { configuredSecrets } from "../config/configured-secrets.js";
import { openModels } from "../eval/open-models.js";
import type { ProgressSink } from "../eval/progress.js";
import { RolloutCache } from "../eval/rollout-cache.js";
import { codeReaches } from "../harness/code-reaches.js";
import { diffHarness } from "../harness/diff-harness.js";
import { assertHarnessSealed } from "../harness/final-harness-guard.js";
import { guardedFiles } from "../harness/index.js";
import { candidateParseCheck } from "../harness/parse-check.js";
import { rebasePatch } from "../harness/patch-root.js";
import type { LoadedHarness } from "../harness/types.js";
import type { HarnessWorkspace } from "../harness/workspace.js";
import { writeHarness } from "../harness/write-harness.js";
import type { Downgrade } from "../llm/capabilities.js";
import { SecretRedactor } from "../safety/secrets.js";
import { BudgetTracker, refinementShare } from "./budget.js";
import { runEvaluations, wrapModels } from "./evaluation-setup.js";
import { evolveGate } from "./gate-result.js";
import { buildGuardContext } from "./guard.js";
import { sealHeldout } from "./heldout-seal.js";
import type { Journal } from "./journal.js";
import { type LoopOutcome, runLoop } from "./loop.js";
import type { BudgetCoverage } from "./measurement-budget.js";
import type { ModelCallEvent } from "./meter.js";
import { PromptLog } from "./prompt-log.js";
import { scoreOf } from "./records.js";
import {
  type EvolveResult,
  evolveResultSchema,
  type RunMetadata,
  resultSchemaVersion,
} from "./result-schema.js";
import type { Evaluation, Models, RunContext } from "./run-context.js";
import { loadInputs, type RunInputs } from "./run-inputs.js";
import { buildRunRecords, measureSummary, runRecordsFile } from "./run-records.js";
import { openStrategy } from "./run-scope.js";
import { startRun } from "./run-start.js";
import { realStages, type StagePort } from "./stage-port.js";
import { stageSchemas } from "./stage-schemas.js";
import { strategyByName } from "./strategies/index.js";
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

/**
 * Runs a strategy on the train split, then the held-out gate (seed versus final harness on the
 * held-out split, whose records no role ever sees), and writes into `outDir`: result.json
 * (`evolveResultSchema`), harness/ (the evolved files), harness.patch and journal.jsonl; its
 * callers render the reports. Re-running into the same folder with the same config resumes:
 * finished stages are replayed.
 */
export async function runEvolve(options: RunEvolveOptions): Promise<EvolveResult> {
  const { loaded } = options;
  const strategy = options.strategy ?? strategyByName(loaded.config.evolve.strategy);
  const clock = options.clock ?? { now: () => Date.now() };
  const startedAt = new Date(clock.now()).toISOString();
  const budget = new BudgetTracker(loaded.config.evolve.budget, () => clock.now());
  const redactor = new SecretRedactor([
    ...configuredSecrets(loaded, options.env),
    ...(options.secrets ?? []),
  ]);
  // Inputs first: a bad or overlapping split is refused before the journal is written.
  const inputs = await loadInputs(loaded, options);
  const { journal, release, coverage } = await startRun({
    ...options,
    strategy,
    inputs,
    ecdysisVersion: options.metadata?.ecdysisVersion,
    budget,
    redact: (value) => redactor.json(value),
    now: () => clock.now(),
  });
  const opened = await openOwnModels(options, release);
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
    const { strategyRun, scope } = openStrategy(strategy, run.context);
    let outcome: LoopOutcome;
    try {
      outcome = await runLoop({ run: strategyRun, context: run.context, scope, seed: run.seed });
    } finally {
      await Promise.all(run.background);
    }
    return await finishRun({
      options,
      strategy,
      run,
      outcome,
      samples: strategyRun.finalSamples ?? loaded.config.samples,
      downgrades: models.downgrades?.() ?? [],
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

/** The models of the config, unless the caller brought its own; the locks go if they fail to open. */
async function openOwnModels(options: RunEvolveOptions, release: () => Promise<void>) {
  if (options.models) return undefined;
  return openModels(options.loaded).catch(async (error) => {
    await release();
    throw error;
  });
}

/**
 * After the loop: the seed and final harnesses measured (outside the training budget), result.json
 * built and scrubbed, the kept prompts flushed, and the outputs written.
 */
async function finishRun(input: {
  options: RunEvolveOptions;
  strategy: Strategy;
  run: OpenRun;
  outcome: LoopOutcome;
  samples: number;
  downgrades: Downgrade[];
  prompts?: PromptLog;
  startedAt: string;
  clock: { now(): number };
  coverage: BudgetCoverage;
}): Promise<EvolveResult> {
  const { options, run, outcome } = input;
  const { loaded } = options;
  const measured = await measureFinal({ run, outcome, samples: input.samples });
  // Everything but the measurement, replayed stages included.
  const training = run.budget.training();
  const result = run.redactor.json(
    evolveResult({
      loaded,
      strategy: input.strategy,
      run,
      outcome,
      measured,
      training,
      coverage: input.coverage,
      downgrades: input.downgrades,
      metadata: {
        startedAt: input.startedAt,
        finishedAt: new Date(input.clock.now()).toISOString(),
        ...options.metadata,
        ...(options.limit === undefined ? {} : { limit: options.limit }),
      },
    }),
  );
  await input.prompts?.settled();
  await writeOutputs({
    outDir: options.outDir,
    result,
    run,
    finalHarness: outcome.finalHarness,
    measured,
    cache: new RolloutCache(path.resolve(loaded.root, loaded.config.cacheDir, "rollouts")),
    patchPrefix: options.patchPrefix,
  });
  return result;
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
      options.adapter ?? createAgentAdapter(loaded, { workspace, sandbox: input.inputs.sandbox }),
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
  const measure = (split: string) => evaluations({ enforce: false, split });
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

/**
 * The seed and final harnesses on both splits. The four measurements are independent: one
 * journal stage runs them concurrently (each evaluation keeps its own rollout concurrency;
 * rollouts are keyed, so results do not depend on the order). One stage, so the recorded spend
 * is not counted twice on resume. When the final harness is the seed harness, the final runs
 * wait for the seed runs: they share rollouts through the cache, which concurrent runs would
 * both miss.
 */
async function measureFinal(input: {
  run: OpenRun;
  outcome: LoopOutcome;
  samples: number;
}): Promise<Evaluation[]> {
  const { run, outcome } = input;
  const { config, train } = run.context;
  const measure = (label: string, split: "train" | "heldout", final: boolean) =>
    run.measure(split)({
      tasks: split === "train" ? train : run.heldout,
      harness: final ? outcome.finalHarness : run.seed,
      samples: final ? input.samples : config.samples,
      label,
    });
  const sameHarness = outcome.finalHarness.hash === run.seed.hash;
  return run.journal.stage(
    "final/measure",
    async () => {
      const seedRuns = Promise.all([
        measure("seed: train", "train", false),
        measure("seed: held-out", "heldout", false),
      ]);
      if (sameHarness) await seedRuns;
      const finalRuns = Promise.all([
        measure("final: train", "train", true),
        measure("final: held-out", "heldout", true),
      ]);
      const [seedResults, finalResults] = await Promise.all([seedRuns, finalRuns]);
      return [...seedResults, ...finalResults];
    },
    { schema: stageSchemas.measurements, measurement: true },
  );
}

/** result.json's `cost`: the whole run's spend, the refinement's part, and training alone. */
function costOf(
  spend: ReturnType<BudgetTracker["snapshot"]>,
  training: ReturnType<BudgetTracker["snapshot"]>,
): EvolveResult["cost"] {
  return {
    rollouts: spend.rollouts,
    llmCalls: spend.llmCalls,
    promptTokens: spend.promptTokens,
    completionTokens: spend.completionTokens,
    costUsd: spend.costUsd,
    wallMs: spend.wallMs,
    refinementShare: refinementShare(spend),
    refinement: {
      llmCalls: spend.refinerCalls,
      tokens: spend.refinerTokens,
      costUsd: spend.refinerCostUsd,
    },
    training,
  };
}

function evolveResult(input: {
  loaded: LoadedConfig;
  strategy: Strategy;
  run: OpenRun;
  outcome: LoopOutcome;
  measured: Evaluation[];
  training: ReturnType<BudgetTracker["snapshot"]>;
  coverage: BudgetCoverage;
  /** Capability steps the endpoints forced (result.json's `endpoints`, only when there were some). */
  downgrades: Downgrade[];
  metadata: RunMetadata;
}): EvolveResult {
  const { loaded, run, outcome } = input;
  const [seedTrain, seedHeldout, finalTrain, finalHeldout] = input.measured;
  const diff = diffHarness(run.seed, outcome.finalHarness);
  const spend = run.budget.snapshot();
  return evolveResultSchema.parse({
    schemaVersion: resultSchemaVersion,
    strategy: input.strategy.name,
    seed: loaded.config.seed,
    configHash: loaded.hash,
    model: run.context.models.agent.model,
    stoppedBy: outcome.stoppedBy,
    baseline: { train: scoreOf(seedTrain.result), heldout: scoreOf(seedHeldout.result) },
    final: { train: scoreOf(finalTrain.result), heldout: scoreOf(finalHeldout.result) },
    iterations: outcome.iterations,
    acceptedEdits: outcome.iterations
      .filter((iteration) => iteration.verdict === "accepted")
      .flatMap((iteration) => iteration.applied),
    rejectedProposals: outcome.memory,
    cost: costOf(spend, input.training),
    budget: { ...loaded.config.evolve.budget, ...input.coverage },
    harness: {
      seedHash: run.seed.hash,
      finalHash: outcome.finalHarness.hash,
      changedFiles: diff.files,
      patch: diff.patch,
    },
    gate: evolveGate({
      baseline: seedHeldout.result,
      final: finalHeldout.result,
      gate: loaded.config.gate,
    }),
    run: input.metadata,
    measures: {
      train: { seed: measureSummary(seedTrain), final: measureSummary(finalTrain) },
      heldout: { seed: measureSummary(seedHeldout), final: measureSummary(finalHeldout) },
    },
    ...(input.downgrades.length > 0 ? { endpoints: { downgrades: input.downgrades } } : {}),
    ...(loaded.config.harness.kind === "command"
      ? { sandbox: run.sandbox, reaches: codeReaches(run.seed.files, outcome.finalHarness.files) }
      : {}),
  });
}

/**
 * Writes the run's outputs. The final harness goes through the content and path guards once
 * more (`assertHarnessSealed`) before anything is written — the Action commits and pushes what
 * lands here — and every text written is scrubbed of the run's secrets. records.json keeps what
 * the drill-down report shows beyond result.json (`buildRunRecords`).
 */
async function writeOutputs(options: {
  outDir: string;
  result: EvolveResult;
  run: OpenRun;
  finalHarness: LoadedHarness;
  measured: Evaluation[];
  /** Where the failing rollouts the iterations name are read back from. */
  cache: RolloutCache;
  patchPrefix?: string;
}): Promise<void> {
  const { outDir, result, run } = options;
  assertHarnessSealed({ seed: run.seed, final: options.finalHarness, guard: run.context.guard });
  const write = (name: string, text: string) =>
    writeFile(path.join(outDir, name), run.redactor.text(text));
  await mkdir(path.join(outDir, "harness"), { recursive: true });
  await writeHarness(options.finalHarness, path.join(outDir, "harness"));
  await write("harness.patch", rebasePatch(result.harness.patch, options.patchPrefix ?? ""));
  const records = await buildRunRecords({
    train: run.context.train,
    iterations: result.iterations,
    measured: options.measured,
    cache: options.cache,
  });
  await write(runRecordsFile, JSON.stringify(run.redactor.json(records)));
  await write("result.json", `${JSON.stringify(result, null, 2)}\n`);
}
