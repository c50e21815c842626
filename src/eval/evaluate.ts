import type { AgentAdapter } from "../agent/types.js";
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
import type { RolloutSlots } from "./rollout-slots.js";
import { infraFailure, isEndpointFailure, runOne } from "./run-one.js";
import type { Scorer } from "./scorers/scorer.js";
import { ScorerError } from "./scorers/scorer-error.js";
import type { EvalResult, RolloutRecord } from "./types.js";

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
  /** Share of the rollouts that may fail to reach the model before the evaluation stops. */
  maxInfraErrorShare?: number;
  /**
   * Which records to return (default: all). The others are still scored, cached, folded into the
   * result and handed to `onRecord`; only the returned list leaves them out, so a large
   * measurement holds its task results in memory, not every trace.
   */
  keep?: (record: RolloutRecord) => boolean;
  /**
   * Agent rollouts in flight shared with other evaluations (`RolloutSlots`): with it, a rollout
   * that runs the agent waits for a slot as well as for a place in this evaluation's pool.
   */
  slots?: RolloutSlots;
  /**
   * The run's secrets: every trace an agent returns is scrubbed of their values and of
   * credential shapes before it is scored, cached or handed on. Default: credential shapes only.
   */
  redactor?: SecretRedactor;
}

/**
 * Default share of a batch's rollouts that may fail to reach the model before the evaluation
 * stops: above it the accuracy would say more about the endpoint than about the harness.
 */
const defaultMaxInfraErrorShare = 0.1;

/** What the result is folded from: a kept record, or these fields of one that is not kept. */
type Folded = Pick<RolloutRecord, "key" | "taskId" | "category" | "sampleIndex"> & {
  verdict: { pass: boolean };
  kept?: RolloutRecord;
};

/**
 * Runs every task × sample of a batch under one harness, concurrently, through the rollout
 * cache; scores, folds samples by majority and summarises. What a harness printed is untrusted
 * and may carry a secret: each trace is scrubbed (`redactor`) the moment the agent returns it,
 * so no cache, record file, journal, report or refiner prompt ever sees it. A rollout whose LLM
 * transport failed (an `llm-error` in its trace, a judge that could not be reached) is an
 * infrastructure error: it is not scored, not cached, not returned among the records (so nothing
 * diagnoses it) and its task counts only through the samples that reached the model; the result
 * says how many there were (`infraErrors`). When they exceed `maxInfraErrorShare` of the batch
 * (at least one is tolerated), or the endpoint refuses the key, quota or model, the evaluation
 * stops with a TransportError that says why.
 */
export async function evaluate(
  options: EvaluateOptions,
): Promise<{ result: EvalResult; records: RolloutRecord[] }> {
  const clock = options.clock ?? Date;
  const started = clock.now();
  const samples = options.samples ?? 1;
  const firstSample = options.firstSample ?? 0;
  const jobs = options.tasks.flatMap((task) =>
    Array.from({ length: samples }, (_, offset) => ({ task, sampleIndex: firstSample + offset })),
  );
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", stop, { once: true });
  if (options.signal?.aborted) stop();
  const abortWith = (error: TransportError | ScorerError): never => {
    controller.abort(error);
    throw error;
  };
  const batch: Batch = {
    options,
    params: options.params ?? {},
    redactor: options.redactor ?? new SecretRedactor(),
    cost: emptyCost(),
    signal: controller.signal,
    abortWith,
    infra: infraTally({ jobs: jobs.length, share: options.maxInfraErrorShare, abortWith }),
    tally: { done: 0, passed: 0 },
  };
  options.progress?.start(options.label ?? options.split, jobs.length);
  try {
    const outcomes = await promisePool<Job, Folded | undefined>({
      items: jobs,
      concurrency: options.concurrency,
      work: (job) => foldJob(batch, job),
    });
    const scored = outcomes.filter((outcome): outcome is Folded => outcome !== undefined);
    batch.cost.wallMs = clock.now() - started;
    const result = buildEvalResult({
      split: options.split,
      harnessHash: options.harness.hash,
      model: options.provider.model,
      tasks: foldTaskResults(scored),
      cost: batch.cost,
      infraErrors: batch.infra.total(),
    });
    const records = scored.flatMap((outcome) => (outcome.kept ? [outcome.kept] : []));
    return { result, records };
  } finally {
    options.signal?.removeEventListener("abort", stop);
    options.progress?.end();
  }
}

/** One task × sample of a batch. */
interface Job {
  task: Task;
  sampleIndex: number;
}

/** What every rollout of one evaluation shares: its options, abort, cost and counters. */
interface Batch {
  options: EvaluateOptions;
  params: object;
  redactor: SecretRedactor;
  cost: ReturnType<typeof emptyCost>;
  signal: AbortSignal;
  abortWith(error: TransportError | ScorerError): never;
  infra: ReturnType<typeof infraTally>;
  tally: { done: number; passed: number };
}

/** Runs one job and folds its record, or counts it as an infra failure (`undefined`). */
async function foldJob(batch: Batch, { task, sampleIndex }: Job): Promise<Folded | undefined> {
  const { options, tally } = batch;
  batch.signal.throwIfAborted();
  const key = rolloutKey({
    harnessHash: options.harness.hash,
    task,
    model: options.provider.model,
    params: batch.params,
    sampleIndex,
  });
  const { cost, redactor, signal } = batch;
  const outcome = await runOne({ options, task, sampleIndex, key, cost, redactor, signal }).catch(
    (error: unknown) =>
      // Every rollout would meet these: stop them all now (a scorer without a verdict would
      // score every task wrong).
      isEndpointFailure(error) || error instanceof ScorerError
        ? batch.abortWith(error as TransportError | ScorerError)
        : Promise.reject(error),
  );
  if (infraFailure in outcome) {
    batch.infra.count(outcome[infraFailure]);
    return undefined;
  }
  options.onRecord?.(outcome);
  tally.done += 1;
  if (outcome.verdict.pass) tally.passed += 1;
  options.progress?.tick(tally.done, tally.passed);
  return folded(outcome, options.keep);
}

/** What the result needs of a scored record, holding the record itself only when it is kept. */
function folded(record: RolloutRecord, keep: EvaluateOptions["keep"]): Folded {
  const { key, taskId, category, sampleIndex } = record;
  const kept = !keep || keep(record) ? record : undefined;
  return { key, taskId, category, sampleIndex, verdict: { pass: record.verdict.pass }, kept };
}

/**
 * Counts the rollouts that did not reach the model and stops the evaluation (through `abortWith`)
 * once they exceed `share` of the batch; at least one is always tolerated.
 */
function infraTally(options: {
  jobs: number;
  share?: number;
  abortWith(error: TransportError): never;
}): { count(detail: string): void; total(): number } {
  const tolerated = Math.max(
    1,
    Math.floor((options.share ?? defaultMaxInfraErrorShare) * options.jobs),
  );
  let total = 0;
  return {
    count(detail) {
      total += 1;
      if (total <= tolerated) return;
      options.abortWith(
        new TransportError(
          "llm",
          `${total} of ${options.jobs} rollouts did not reach the model (last: ${detail}); evaluation stopped, nothing of them was scored or cached — check the endpoint, key and rate limits, then run again`,
          { retryable: true },
        ),
      );
    },
    total: () => total,
  };
}
