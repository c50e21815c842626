import path from "node:path";
import { z } from "zod";
import { RolloutCache } from "../eval/rollout-cache.js";
import { evolveResult, writeOutputs } from "./evolve-result.js";
import type { LoopOutcome } from "./loop.js";
import { type Measured, measureHarnesses, measurementSchema } from "./measurement.js";
import type { BudgetCoverage } from "./measurement-budget.js";
import type { OpenRun } from "./open-run.js";
import { readShardSpend } from "./phase-files.js";
import type { PromptLog } from "./prompt-log.js";
import type { EvolveResult } from "./result-schema.js";
import type { Models } from "./run-context.js";
import type { RunEvolveOptions } from "./run-evolve-options.js";
import type { Strategy, StrategyRun } from "./strategy.js";

/** A run whose search is done: what its measurement and outputs need. */
export interface Searched {
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
 * After the loop: the seed and final harnesses measured (outside the training budget), result.json
 * built and scrubbed, the kept prompts flushed, and the outputs written.
 */
export async function finishRun(searched: Searched): Promise<EvolveResult> {
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
        crashesKnown: outcome.stoppedBy === "agent-unusable",
      });
    },
    { schema: measuredSchema, measurement: true },
  );
}
