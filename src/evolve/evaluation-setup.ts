import path from "node:path";
import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import type { Task } from "../config/task-schema.js";
import { evaluate } from "../eval/evaluate.js";
import type { ProgressSink } from "../eval/progress.js";
import { RolloutCache } from "../eval/rollout-cache.js";
import { rolloutParams } from "../eval/rollout-params.js";
import { RolloutSlots } from "../eval/rollout-slots.js";
import { scorerForTasks } from "../eval/scorers/create-scorer.js";
import type { Scorer } from "../eval/scorers/scorer.js";
import { withCallCache } from "../llm/call-cache.js";
import type { ChatProvider, ChatResponse } from "../llm/types.js";
import type { SecretRedactor } from "../safety/secrets.js";
import type { BudgetTracker } from "./budget.js";
import { type ModelCallEvent, meterAdapter, meterProvider } from "./meter.js";
import type { EvaluateFn, Models } from "./run-context.js";

/**
 * The run's models, wrapped: the on-disk call cache (`<cacheDir>/calls`, so a resumed run repeats
 * no finished LLM call) inside, the budget meter outside (so only uncached calls count).
 */
export function wrapModels(options: {
  models: Models;
  loaded: LoadedConfig;
  budget: BudgetTracker;
  callCache: boolean;
  /** Told of every model call (live progress). */
  onCall?: (event: ModelCallEvent) => void;
  /** Scrubs what the call cache stores. */
  redactor?: SecretRedactor;
}): Models {
  const { models, loaded, budget, onCall } = options;
  const dir = path.resolve(loaded.root, loaded.config.cacheDir, "calls");
  const cached = (provider: ChatProvider): ChatProvider =>
    options.callCache ? withCallCache(provider, dir, redactResponses(options.redactor)) : provider;
  return {
    agent: meterProvider({ provider: cached(models.agent), budget, role: "agent", onCall }),
    refiner: meterProvider({
      provider: cached(models.refiner),
      budget,
      role: "refiner",
      onCall,
      enforce: true,
    }),
    probe: models.probe
      ? meterProvider({ provider: cached(models.probe), budget, role: "agent", onCall })
      : undefined,
    // The scorers' judge (the refiner when none is configured) is never refused: it scores the
    // measurement too, which the budget must not cut short.
    judge: meterProvider({
      provider: cached(models.judge ?? models.refiner),
      budget,
      role: "refiner",
    }),
  };
}

/** The call cache's scrub of what it stores, from the run's redactor. */
function redactResponses(redactor: SecretRedactor | undefined) {
  return redactor && { redact: (response: ChatResponse) => redactor.json(response) };
}

/** Hands out one progress sink per evaluation (see `progressPhases`). */
export interface ProgressPhases {
  next(): ProgressSink | undefined;
}

/**
 * Hands each evaluation its own progress sink: the first running phase drives the display, a
 * phase that starts while another runs (evolve runs independent evaluations concurrently) gets a
 * fork, so neither overwrites the other's counts.
 */
function progressPhases(sink: ProgressSink | undefined): ProgressPhases {
  let active = 0;
  return {
    next(): ProgressSink | undefined {
      if (!sink) return undefined;
      const phase = active === 0 ? sink : (sink.fork?.() ?? sink);
      active += 1;
      let ended = false;
      return {
        start: (label, total) => phase.start(label, total),
        tick: (done, passed) => phase.tick(done, passed),
        end: () => {
          phase.end();
          if (!ended) active -= 1;
          ended = true;
        },
      };
    },
  };
}

/**
 * Evaluation as the loop calls it: rollout cache under `<cacheDir>/rollouts`, the config's
 * concurrency and samples, and — when `enforce` — the budget's abort signal. An evaluation cut
 * short by the budget throws BudgetExhaustedError; one that finished is kept.
 */
function makeEvaluate(options: {
  loaded: LoadedConfig;
  models: Models;
  adapter: AgentAdapter;
  cache: RolloutCache;
  scorer: (task: Task) => Scorer;
  budget: BudgetTracker;
  enforce: boolean;
  /** One per run, shared by every evaluation of it (they may run concurrently). */
  phases?: ProgressPhases;
  split: string;
  /** The run's secrets, scrubbed from every trace. */
  redactor?: SecretRedactor;
  /** The run's one limit on agent rollouts in flight, whatever evaluations run concurrently. */
  slots?: RolloutSlots;
}): EvaluateFn {
  const { loaded, models, budget } = options;
  return async (request) => {
    if (options.enforce) budget.check();
    const provider = request.provider === "probe" ? models.probe : models.agent;
    if (!provider) throw new Error("evaluate: no probe model is configured");
    const model =
      request.provider === "probe"
        ? (loaded.config.probe ?? loaded.config.model)
        : loaded.config.model;
    let outcome: Awaited<ReturnType<EvaluateFn>>;
    try {
      outcome = await evaluate({
        tasks: request.tasks,
        harness: request.harness,
        provider,
        adapter: options.adapter,
        scorer: options.scorer,
        samples: request.samples ?? loaded.config.samples,
        firstSample: request.firstSample,
        params: rolloutParams(model),
        concurrency: loaded.config.concurrency,
        cache: options.cache,
        progress: options.phases?.next(),
        signal: options.enforce ? budget.signal : undefined,
        split: options.split,
        label: request.label,
        onRecord: request.onRecord,
        keep: request.keep,
        slots: options.slots,
        redactor: options.redactor,
      });
    } catch (error) {
      throw (options.enforce ? budget.exceeded() : undefined) ?? error;
    }
    const exhausted = options.enforce ? budget.exceeded() : undefined;
    if (exhausted && outcome.result.n < request.tasks.length) throw exhausted;
    return outcome;
  };
}

/**
 * The evaluations of one run (evolve or gate), sharing its rollout cache (`<cacheDir>/rollouts`),
 * scorers, progress display, adapter and budget. `enforce`: the budget may stop it (training);
 * otherwise it only counts (the seed and final measurements, the gate).
 */
export function runEvaluations(options: {
  loaded: LoadedConfig;
  models: Models;
  budget: BudgetTracker;
  /** The adapter of every evaluation that does not bring its own. */
  adapter?: AgentAdapter;
  progress?: ProgressSink;
  /** The run's secrets, scrubbed from every trace. */
  redactor?: SecretRedactor;
  /** Told of the calls an agent makes itself (a command harness; live progress). */
  onCall?: (event: ModelCallEvent) => void;
}): (use: { enforce: boolean; split: string; adapter?: AgentAdapter }) => EvaluateFn {
  const { loaded, models, budget } = options;
  const shared = {
    loaded,
    models,
    cache: new RolloutCache(path.resolve(loaded.root, loaded.config.cacheDir, "rollouts")),
    scorer: scorerForTasks(loaded.config.tasks.scorer, {
      root: loaded.root,
      judge: models.judge ?? models.refiner,
      file: loaded.path,
    }),
    budget,
    phases: progressPhases(options.progress),
    redactor: options.redactor,
    // One limit for the whole run: concurrent evaluations (the four measurements, an
    // ablation's changes) share `concurrency` agent rollouts instead of taking a pool each.
    slots: new RolloutSlots(loaded.config.concurrency),
  };
  return ({ enforce, split, adapter }) => {
    const chosen = adapter ?? options.adapter;
    if (!chosen) throw new Error("runEvaluations: no agent adapter for this evaluation");
    return makeEvaluate({
      ...shared,
      adapter: meterAdapter({ adapter: chosen, budget, enforce, onCall: options.onCall }),
      enforce,
      split,
    });
  };
}
