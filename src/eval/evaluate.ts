import type { AgentAdapter, Trace } from "../agent/types.js";
import type { Task } from "../config/task-schema.js";
import { TransportError } from "../errors/transport-error.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import { SecretRedactor } from "../safety/secrets.js";
import { buildEvalResult, emptyCost, foldTaskResults } from "./eval-result.js";
import type { ProgressSink } from "./progress.js";
import { promisePool } from "./promise-pool.js";
import type { RolloutCache } from "./rollout-cache.js";
import { rolloutKey } from "./rollout-key.js";
import { failed, type Scorer } from "./scorers/scorer.js";
import type { EvalResult, RolloutRecord, Verdict } from "./types.js";

/** Options of `evaluate` (see docs/stage-interfaces.md). */
export interface EvaluateOptions {
  tasks: Task[];
  harness: LoadedHarness;
  provider: ChatProvider;
  adapter: AgentAdapter;
  scorer: (task: Task) => Scorer;
  /** Samples per task (pass = strict majority). Default 1. */
  samples?: number;
  concurrency: number;
  cache?: RolloutCache;
  progress?: ProgressSink;
  signal?: AbortSignal;
  split: string;
  label?: string;
  /** Sampling parameters that key the cache (temperature, max tokens, world…). Default {}. */
  params?: object;
  /** Index of the first sample (re-samples use fresh indices). Default 0. */
  firstSample?: number;
  /** Clock for wall time. Default Date.now. */
  clock?: { now(): number };
  /** Called with each record as soon as it is scored (cached or not); must not throw. */
  onRecord?: (record: RolloutRecord) => void;
  /**
   * The run's secrets: every trace an agent returns is scrubbed of their values and of
   * credential shapes before it is scored, cached or handed on. Default: credential shapes only.
   */
  redactor?: SecretRedactor;
}

/**
 * Runs every task × sample of a batch under one harness, concurrently, through the rollout
 * cache; scores, folds samples by majority and summarises. What a harness printed is untrusted
 * and may carry a secret: each trace is scrubbed (`redactor`) the moment the agent returns it,
 * so no cache, record file, journal, report or refiner prompt ever sees it. A rollout whose LLM transport failed
 * is recorded (`llm-error` event, verdict `infra-error`) and not cached; when more than half of
 * the rollouts fail that way the evaluation aborts with a TransportError.
 */
export async function evaluate(
  options: EvaluateOptions,
): Promise<{ result: EvalResult; records: RolloutRecord[] }> {
  const clock = options.clock ?? Date;
  const started = clock.now();
  const samples = options.samples ?? 1;
  const firstSample = options.firstSample ?? 0;
  const params = options.params ?? {};
  const model = options.provider.model;
  const redactor = options.redactor ?? new SecretRedactor();
  const jobs = options.tasks.flatMap((task) =>
    Array.from({ length: samples }, (_, offset) => ({ task, sampleIndex: firstSample + offset })),
  );
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", stop, { once: true });
  if (options.signal?.aborted) stop();
  const cost = emptyCost();
  let done = 0;
  let passed = 0;
  let infraFailures = 0;
  options.progress?.start(options.label ?? options.split, jobs.length);
  try {
    const records = await promisePool({
      items: jobs,
      concurrency: options.concurrency,
      work: async ({ task, sampleIndex }) => {
        controller.signal.throwIfAborted();
        const key = rolloutKey({
          harnessHash: options.harness.hash,
          task,
          model,
          params,
          sampleIndex,
        });
        const scorer = options.scorer(task);
        const hit = await options.cache?.get(key);
        let record: RolloutRecord;
        if (hit) {
          // Re-score: the cache keys the rollout, not the scorer, so a changed scorer still applies.
          const verdict = await scorer.score(task, { answer: hit.answer, output: hit.output });
          record = { ...hit, category: task.category, verdict, latencyMs: 0, cached: true };
          cost.cachedRollouts += 1;
        } else {
          const runStarted = clock.now();
          const trace = redactor.json(
            await runRollout({ options, task, sampleIndex, signal: controller.signal }),
          );
          controller.signal.throwIfAborted();
          const infra = trace.events.some((event) => event.kind === "llm-error");
          const verdict: Verdict = infra
            ? failed("infra-error")
            : await scorer.score(task, { answer: trace.answer, output: trace.output });
          record = {
            key,
            taskId: task.id,
            category: task.category,
            harnessHash: options.harness.hash,
            model,
            sampleIndex,
            output: trace.output,
            answer: trace.answer,
            verdict,
            trace,
            latencyMs: clock.now() - runStarted,
            cached: false,
          };
          cost.rollouts += 1;
          cost.llmCalls += trace.usage.llmCalls;
          cost.promptTokens += trace.usage.promptTokens;
          cost.completionTokens += trace.usage.completionTokens;
          cost.costUsd += trace.usage.costUsd;
          if (infra) {
            infraFailures += 1;
            if (infraFailures * 2 > jobs.length) {
              const error = new TransportError(
                "llm",
                `${infraFailures} of ${jobs.length} rollouts failed to reach the model (last: ${lastLlmError(trace)}); evaluation aborted — check the endpoint, key and rate limits`,
                { retryable: true },
              );
              controller.abort(error);
              throw error;
            }
          } else if (options.cache) {
            await options.cache.put(record);
          }
        }
        options.onRecord?.(record);
        done += 1;
        if (record.verdict.pass) passed += 1;
        options.progress?.tick(done, passed);
        return record;
      },
    });
    cost.wallMs = clock.now() - started;
    const result = buildEvalResult({
      split: options.split,
      harnessHash: options.harness.hash,
      model,
      tasks: foldTaskResults(records),
      cost,
    });
    return { result, records };
  } finally {
    options.signal?.removeEventListener("abort", stop);
    options.progress?.end();
  }
}

async function runRollout(input: {
  options: EvaluateOptions;
  task: Task;
  sampleIndex: number;
  signal: AbortSignal;
}): Promise<Trace> {
  const { options, task, sampleIndex, signal } = input;
  try {
    return await options.adapter.run({
      task,
      harness: options.harness,
      provider: options.provider,
      sampleIndex,
      signal,
    });
  } catch (error) {
    // An adapter should record transport failures itself; one that throws them still yields a record.
    if (error instanceof TransportError && error.service === "llm" && !signal.aborted) {
      return {
        steps: [],
        events: [{ kind: "llm-error", step: 0, detail: error.message.slice(0, 2000) }],
        output: "",
        answer: null,
        usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0, costUsd: 0 },
        latencyMs: 0,
      };
    }
    throw error;
  }
}

function lastLlmError(trace: Trace): string {
  return (
    trace.events.find((event) => event.kind === "llm-error")?.detail?.slice(0, 200) ?? "llm-error"
  );
}
