import { createAgentAdapter } from "../agent/create-agent-adapter.js";
import type { SandboxStatus } from "../agent/sandbox/sandbox-policy.js";
import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import { guardedFiles } from "../harness/index.js";
import type { LabelWord } from "../harness/label-words.js";
import { candidateParseCheck } from "../harness/parse-check.js";
import type { LoadedHarness } from "../harness/types.js";
import type { HarnessWorkspace } from "../harness/workspace.js";
import type { SecretRedactor } from "../safety/secrets.js";
import type { BudgetTracker } from "./budget.js";
import { runEvaluations, wrapModels } from "./evaluation-setup.js";
import { buildGuardContext } from "./guard.js";
import { sealHeldout } from "./heldout-seal.js";
import type { Journal } from "./journal.js";
import type { PromptLog } from "./prompt-log.js";
import type { Models, RunContext } from "./run-context.js";
import type { RunEvolveOptions } from "./run-evolve-options.js";
import type { RunInputs } from "./run-inputs.js";
import { realStages } from "./stage-port.js";

/** A run opened: its journal, budget, inputs, models and the loop's context. */
export interface OpenRun {
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
 * Opens the loop's side of a run: the models wrapped (budget, call cache, redaction), the
 * evaluations, the guard, the held-out seal around what the strategy sees, the background work.
 */
export function openRun(input: {
  options: RunEvolveOptions;
  journal: Journal;
  budget: BudgetTracker;
  redactor: SecretRedactor;
  models: Models;
  inputs: RunInputs;
  workspace: HarnessWorkspace;
  /** Keeps the refiner's prompts (prompts.jsonl); absent with `report.keepPrompts: false`. */
  prompts?: PromptLog;
  /** The splits' label words, found beforehand (`labelWordSteps`); found here when absent. */
  labelWords?: LabelWord[];
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
    adapter: options.adapter ?? configuredAdapter(input),
    progress: options.progress,
    redactor,
    onCall,
  });
  const { background, start } = backgroundWork(budget);
  const context: RunContext = {
    config,
    train,
    heldoutSize: heldout.length,
    guard: runGuard({ loaded, splits, redactor, seed, labelWords: input.labelWords }),
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

/** The config's agent adapter, running candidates from the run's workspace, sandbox and gateway. */
function configuredAdapter(input: {
  options: RunEvolveOptions;
  inputs: RunInputs;
  models: Models;
  workspace: HarnessWorkspace;
}): AgentAdapter {
  return createAgentAdapter(input.options.loaded, {
    workspace: input.workspace,
    sandbox: input.inputs.sandbox,
    gateway: input.models.gateway,
  });
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
  labelWords?: LabelWord[];
}): RunContext["guard"] {
  const { loaded, splits, redactor, seed, labelWords } = input;
  return {
    ...buildGuardContext({ loaded, train: splits.train, heldout: splits.heldout, labelWords }),
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
