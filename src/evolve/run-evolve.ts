import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { LoadedConfig } from "../config/config-schema.js";
import { configuredSecrets } from "../config/configured-secrets.js";
import { loadSplits } from "../config/split-overlap.js";
import { BudgetExhaustedError } from "../errors/budget-error.js";
import { limitTasks } from "../eval/limit-tasks.js";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import { assertHarnessSealed } from "../harness/final-harness-guard.js";
import { renderHtml } from "../report/render-html.js";
import { renderMarkdown } from "../report/render-markdown.js";
import { SecretRedactor } from "../safety/secrets.js";
import { BudgetTracker, refinementShare } from "./budget.js";
import type { EvolveDeps, GuardContextLike, Models, ProgressSink } from "./deps.js";
import { makeEvaluate, progressPhases, scorerFactory, wrapModels } from "./evaluation-setup.js";
import { evolveGate } from "./gate-result.js";
import { buildGuardContext } from "./guard-context.js";
import { sealHeldout } from "./heldout-seal.js";
import { Journal } from "./journal.js";
import { type ModelCallEvent, meterAdapter } from "./meter.js";
import { scoreOf } from "./records.js";
import { createRng, deriveSeed } from "./rng.js";
import { strategyByName } from "./strategies/index.js";
import type {
  EvolveResult,
  RunMetadata,
  Strategy,
  StrategyOutcome,
  StrategyProgress,
} from "./types.js";

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
  /** The other stages; defaults to the real ones. */
  deps?: EvolveDeps;
  /** Wrap models with the on-disk call cache (default true). */
  callCache?: boolean;
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
  /** Recorded in result.json `run` (the version, the git commit); the times come from `clock`. */
  metadata?: Pick<RunMetadata, "ecdysisVersion" | "git">;
  /** Told of every model call, agent and refiner roles (live progress). */
  onCall?: (event: ModelCallEvent) => void;
}

async function defaultDeps(): Promise<EvolveDeps> {
  return (await import("./real-deps.js")).realDeps;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Runs a strategy on the train split, then the held-out gate (seed versus final harness on the
 * held-out split, whose records no role ever sees), and writes into `outDir`: result.json,
 * report.md, report.html, harness/ (the evolved files), harness.patch and journal.jsonl.
 * Re-running into the same folder with the same config resumes: finished stages are replayed.
 */
export async function runEvolve(options: RunEvolveOptions): Promise<EvolveResult> {
  const { loaded, outDir } = options;
  const config = loaded.config;
  const deps = options.deps ?? (await defaultDeps());
  const clock = options.clock ?? { now: () => Date.now() };
  const strategy = options.strategy ?? strategyByName(config.evolve.strategy);
  const startedAt = new Date(clock.now()).toISOString();
  const budget = new BudgetTracker(config.evolve.budget, () => clock.now());
  const redactor = new SecretRedactor([
    ...configuredSecrets(loaded, options.env),
    ...(options.secrets ?? []),
  ]);
  // Inputs first: a bad or overlapping split is refused before the journal is written.
  const seedHarness = await deps.loadHarness({
    dir: path.resolve(loaded.root, config.harness.dir),
    kind: config.harness.kind,
    command: config.harness.command,
  });
  const splits = await loadSplits(loaded, (file) => deps.loadTasks(file));
  const train = limitTasks(splits.train, options.limit);
  const heldout = limitTasks(splits.heldout, options.limit);
  const guard = {
    ...buildGuardContext({ loaded, train: splits.train, heldout: splits.heldout }),
    secretValues: [...redactor.values],
  };
  const limited = options.limit === undefined ? "" : ` --limit ${options.limit}`;
  const journal = await Journal.open({
    outDir,
    runKey: sha256(`${loaded.hash}\n${strategy.name}${limited ? `\n${limited.trim()}` : ""}`),
    configHash: loaded.hash,
    strategy: `${strategy.name}${limited}`,
    budget,
    afterStage: options.afterStage,
    redact: (value) => redactor.json(value),
  });
  const opened = options.models ? undefined : await deps.openModels(loaded);
  const callCache = options.callCache ?? true;
  try {
    const models = wrapModels({
      models: options.models ?? (opened as Models),
      loaded,
      deps,
      budget,
      callCache,
      redactor,
      onCall: options.onCall,
    });
    const shared = {
      loaded,
      deps,
      models,
      cache: deps.createRolloutCache(path.resolve(loaded.root, config.cacheDir, "rollouts")),
      scorer: scorerFactory({ loaded, deps, judge: models.judge ?? models.refiner }),
      budget,
      phases: progressPhases(options.progress),
      redactor,
    };
    const adapter = deps.createAdapter(loaded);
    const trainingEvaluate = makeEvaluate({
      ...shared,
      adapter: meterAdapter({ adapter, budget, enforce: true }),
      enforce: true,
      split: "train",
    });
    // The strategy's view: every role call and stage door checked against the held-out split.
    const sealed = sealHeldout({
      deps,
      models,
      evaluate: trainingEvaluate,
      train,
      heldout: splits.heldout,
      seedHarness,
    });
    const progress: StrategyProgress = { harness: seedHarness, iterations: [], rejected: [] };
    const background: Promise<unknown>[] = [];
    let outcome: StrategyOutcome;
    try {
      outcome = await strategy.run(
        {
          config,
          seedHarness,
          train,
          heldoutSize: heldout.length,
          guard,
          deps: sealed.deps,
          models: sealed.models,
          callCache,
          evaluate: sealed.evaluate,
          stage: (name, run) => journal.stage(name, run),
          rng: (...parts) => createRng(deriveSeed(config.seed, ...parts)),
          checkBudget: () => budget.check(),
          remainingRollouts: () => budget.remainingRollouts(),
          background: (start) => {
            const work = budget.detached(start);
            background.push(work.catch(() => undefined));
            return work;
          },
          onIteration: (record) => {
            record.elapsedMs = budget.snapshot().wallMs;
          },
        },
        progress,
      );
    } catch (error) {
      if (!(error instanceof BudgetExhaustedError)) throw error;
      outcome = {
        finalHarness: progress.harness,
        iterations: progress.iterations,
        stoppedBy: `budget:${error.resource}`,
        rejected: progress.rejected,
        evaluationSamples: progress.evaluationSamples,
      };
    } finally {
      await Promise.all(background);
    }
    const training = budget.snapshot();
    // The budget bounds training; measuring the seed and final harnesses is outside it (but counted in cost).
    const measure = (split: "train" | "heldout") =>
      makeEvaluate({
        ...shared,
        adapter: meterAdapter({ adapter, budget, enforce: false }),
        enforce: false,
        split,
      });
    const finalSamples = outcome.evaluationSamples ?? config.samples;
    const run = (
      name: string,
      split: "train" | "heldout",
      which: "seed" | "final",
    ): Promise<{ result: EvalResult; records: RolloutRecord[] }> =>
      measure(split)({
        tasks: split === "train" ? train : heldout,
        harness: which === "seed" ? seedHarness : outcome.finalHarness,
        samples: which === "seed" ? config.samples : finalSamples,
        label: name,
      });
    // The four measurements are independent: one journal stage runs them concurrently (each
    // evaluation keeps its own rollout concurrency; rollouts are keyed, so results do not depend
    // on the order). One stage, so the recorded spend is not counted twice on resume. When the
    // final harness is the seed harness, the final runs wait for the seed runs: they share
    // rollouts through the cache, which concurrent runs would both miss.
    const sameHarness = outcome.finalHarness.hash === seedHarness.hash;
    const [baselineTrain, baselineHeldout, finalTrain, finalHeldout] = await journal.stage(
      "final/measure",
      async () => {
        const seedRuns = Promise.all([
          run("seed: train", "train", "seed"),
          run("seed: held-out", "heldout", "seed"),
        ]);
        if (sameHarness) await seedRuns;
        const finalRuns = Promise.all([
          run("final: train", "train", "final"),
          run("final: held-out", "heldout", "final"),
        ]);
        const [seedResults, finalResults] = await Promise.all([seedRuns, finalRuns]);
        return [...seedResults, ...finalResults];
      },
    );
    const diff = deps.diffHarness(seedHarness, outcome.finalHarness);
    const spend = budget.snapshot();
    const result: EvolveResult = {
      version: 1,
      strategy: strategy.name,
      seed: config.seed,
      configHash: loaded.hash,
      model: models.agent.model,
      stoppedBy: outcome.stoppedBy,
      baseline: { train: scoreOf(baselineTrain.result), heldout: scoreOf(baselineHeldout.result) },
      final: { train: scoreOf(finalTrain.result), heldout: scoreOf(finalHeldout.result) },
      iterations: outcome.iterations,
      acceptedEdits: outcome.iterations
        .filter((iteration) => iteration.verdict === "accepted")
        .flatMap((iteration) => iteration.applied),
      rejectedProposals: outcome.rejected,
      cost: {
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
      },
      harness: {
        seedHash: seedHarness.hash,
        finalHash: outcome.finalHarness.hash,
        changedFiles: diff.files,
        patch: diff.patch,
      },
      gate: evolveGate({
        baseline: baselineHeldout.result,
        final: finalHeldout.result,
        gate: config.gate,
      }),
      run: {
        startedAt,
        finishedAt: new Date(clock.now()).toISOString(),
        ...options.metadata,
        ...(options.limit === undefined ? {} : { limit: options.limit }),
      },
      ...endpointsSection(options.models ?? opened),
    };
    await writeOutputs({
      outDir,
      result,
      deps,
      seedHarness,
      finalHarness: outcome.finalHarness,
      guard,
      redactor,
    });
    return result;
  } finally {
    await opened?.close();
  }
}

/** result.json's `endpoints` section, present only when an endpoint forced a capability step. */
function endpointsSection(models: Models | undefined): Pick<EvolveResult, "endpoints"> {
  const downgrades = models?.downgrades?.() ?? [];
  return downgrades.length > 0 ? { endpoints: { downgrades } } : {};
}

/**
 * Writes the run's outputs. The final harness goes through the content and path guards once
 * more (`assertHarnessSealed`) before anything is written — the Action commits and pushes what
 * lands here — and every text written is scrubbed of the run's secrets.
 */
async function writeOutputs(options: {
  outDir: string;
  result: EvolveResult;
  deps: EvolveDeps;
  seedHarness: StrategyOutcome["finalHarness"];
  finalHarness: StrategyOutcome["finalHarness"];
  guard: GuardContextLike;
  redactor: SecretRedactor;
}): Promise<void> {
  const { outDir, redactor } = options;
  assertHarnessSealed({
    seed: options.seedHarness,
    final: options.finalHarness,
    guard: options.guard,
  });
  const result = redactor.json(options.result);
  const secrets = [...redactor.values];
  await mkdir(path.join(outDir, "harness"), { recursive: true });
  await options.deps.writeHarness(options.finalHarness, path.join(outDir, "harness"));
  const write = (name: string, text: string) =>
    writeFile(path.join(outDir, name), redactor.text(text));
  await write("harness.patch", result.harness.patch);
  await write("result.json", `${JSON.stringify(result, null, 2)}\n`);
  await write("report.md", renderMarkdown(result, { secrets }));
  await write("report.html", renderHtml(result, { secrets }));
}
