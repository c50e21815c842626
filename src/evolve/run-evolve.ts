import path from "node:path";
import { runWorkspace } from "../agent/create-agent-adapter.js";
import { configuredSecrets } from "../config/configured-secrets.js";
import { openModels } from "../eval/open-models.js";
import { SecretRedactor } from "../safety/secrets.js";
import { BudgetTracker } from "./budget.js";
import { writeFinalHarness } from "./evolve-result.js";
import { finishRun, type Searched } from "./finish-run.js";
import { findLabelWords } from "./guard.js";
import { runLoop } from "./loop.js";
import { type OpenRun, openRun } from "./open-run.js";
import { type SearchHandoff, writeSearchHandoff } from "./phase-files.js";
import { PromptLog } from "./prompt-log.js";
import type { EvolveResult } from "./result-schema.js";
import type { Models } from "./run-context.js";
import type { RunEvolveOptions } from "./run-evolve-options.js";
import { loadInputs } from "./run-inputs.js";
import { startRun } from "./run-start.js";
import { openWatchedStrategy } from "./silent-end.js";
import { strategyByName } from "./strategies/index.js";
import type { Strategy } from "./strategy.js";

export type { RunEvolveOptions } from "./run-evolve-options.js";

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
      stoppedBy: outcome.stoppedBy,
      stopDetail: outcome.iterations.at(-1)?.reason,
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
    const labelWords = await findLabelWords(loaded, inputs.splits);
    const all = { options, journal, budget, redactor, models, inputs, workspace, prompts };
    const run = openRun({ ...all, labelWords });
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
    simServer: options.simServer,
    gatewayCache: options.callCache ?? true,
    redact,
  });
  return opened.catch(async (error) => {
    await release();
    throw error;
  });
}
