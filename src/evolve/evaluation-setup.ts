import path from "node:path";
import type { AgentAdapter } from "../agent/types.js";
import type { LoadedConfig } from "../config/config-schema.js";
import type { Task } from "../config/task-schema.js";
import { rolloutParams } from "../eval/rollout-params.js";
import type { ChatProvider } from "../llm/types.js";
import type { SecretRedactor } from "../safety/secrets.js";
import type { BudgetTracker } from "./budget.js";
import type { EvolveDeps, Models, ProgressSink, RolloutCacheLike, ScorerLike } from "./deps.js";
import { type ModelCallEvent, meterProvider } from "./meter.js";
import type { EvaluateFn } from "./types.js";

/** Per-task scorer factory: a task's own scorer overrides the config's default; one instance per spec. */
export function scorerFactory(options: {
  loaded: LoadedConfig;
  deps: EvolveDeps;
  judge?: ChatProvider;
}): (task: Task) => ScorerLike {
  const scorers = new Map<string, ScorerLike>();
  return (task) => {
    const spec = task.scorer ?? options.loaded.config.tasks.scorer;
    const key = JSON.stringify(spec);
    let scorer = scorers.get(key);
    if (!scorer) {
      scorer = options.deps.createScorer(spec, { root: options.loaded.root, judge: options.judge });
      scorers.set(key, scorer);
    }
    return scorer;
  };
}

/**
 * The run's models, wrapped: the on-disk call cache (`<cacheDir>/calls`, so a resumed run repeats
 * no finished LLM call) inside, the budget meter outside (so only uncached calls count).
 */
export function wrapModels(options: {
  models: Models;
  loaded: LoadedConfig;
  deps: EvolveDeps;
  budget: BudgetTracker;
  callCache: boolean;
  /** Told of every model call (live progress). */
  onCall?: (event: ModelCallEvent) => void;
  /** Scrubs what the call cache stores. */
  redactor?: SecretRedactor;
}): Models {
  const { models, loaded, deps, budget, onCall } = options;
  const dir = path.resolve(loaded.root, loaded.config.cacheDir, "calls");
  const cached = (provider: ChatProvider): ChatProvider =>
    options.callCache ? deps.withCallCache(provider, dir, options.redactor) : provider;
  return {
    agent: meterProvider({ provider: cached(models.agent), budget, role: "agent", onCall }),
    refiner: meterProvider({ provider: cached(models.refiner), budget, role: "refiner", onCall }),
    probe: models.probe
      ? meterProvider({ provider: cached(models.probe), budget, role: "agent", onCall })
      : undefined,
    judge: models.judge
      ? meterProvider({ provider: cached(models.judge), budget, role: "refiner" })
      : undefined,
  };
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
export function progressPhases(sink: ProgressSink | undefined): ProgressPhases {
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
export function makeEvaluate(options: {
  loaded: LoadedConfig;
  deps: EvolveDeps;
  models: Models;
  adapter: AgentAdapter;
  cache: RolloutCacheLike;
  scorer: (task: Task) => ScorerLike;
  budget: BudgetTracker;
  enforce: boolean;
  /** One per run, shared by every evaluation of it (they may run concurrently). */
  phases?: ProgressPhases;
  split: string;
  /** The run's secrets, scrubbed from every trace. */
  redactor?: SecretRedactor;
}): EvaluateFn {
  const { loaded, deps, models, budget } = options;
  return async (request) => {
    if (options.enforce) budget.check();
    const provider = request.provider === "probe" ? models.probe : models.agent;
    if (!provider) throw new Error("evaluate: no probe model is configured");
    let outcome: Awaited<ReturnType<EvaluateFn>>;
    try {
      outcome = await deps.evaluate({
        tasks: request.tasks,
        harness: request.harness,
        provider,
        adapter: options.adapter,
        scorer: options.scorer,
        samples: request.samples ?? loaded.config.samples,
        firstSample: request.firstSample,
        params: rolloutParams(
          request.provider === "probe"
            ? (loaded.config.probe ?? loaded.config.model)
            : loaded.config.model,
        ),
        concurrency: loaded.config.concurrency,
        cache: options.cache,
        progress: options.phases?.next(),
        signal: options.enforce ? budget.signal : undefined,
        split: options.split,
        label: request.label,
        onRecord: request.onRecord,
        redactor: options.redactor,
      });
    } catch (error) {
      const exhausted = options.enforce ? budget.exceeded() : undefined;
      throw exhausted ?? error;
    }
    const exhausted = options.enforce ? budget.exceeded() : undefined;
    if (exhausted && outcome.result.n < request.tasks.length) throw exhausted;
    return outcome;
  };
}
