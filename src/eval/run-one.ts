import type { Trace } from "../agent/types.js";
import type { Task } from "../config/task-schema.js";
import { TransportError } from "../errors/transport-error.js";
import type { SecretRedactor } from "../safety/secrets.js";
import type { emptyCost } from "./eval-result.js";
import type { EvaluateOptions } from "./evaluate.js";
import type { Scorer } from "./scorers/scorer.js";
import type { RolloutRecord, Verdict } from "./types.js";

// One rollout of an evaluation (`evaluate`): run or taken from the cache, scrubbed, scored and
// cached — or set aside as an infrastructure failure, which is never scored.

/** A rollout that did not reach the model: counted, never scored, cached or handed on. */
export const infraFailure = Symbol("infra-failure");
/** A scored record, or why the rollout did not reach the model. */
export type Outcome = RolloutRecord | { [infraFailure]: string };

/** One rollout: a cache hit re-scored, or a run that is scored and cached — or an infra failure. */
export async function runOne(input: {
  options: EvaluateOptions;
  task: Task;
  sampleIndex: number;
  key: string;
  cost: ReturnType<typeof emptyCost>;
  redactor: SecretRedactor;
  signal: AbortSignal;
}): Promise<Outcome> {
  const { options, task, sampleIndex, key, cost, signal } = input;
  const scorer = options.scorer(task);
  const hit = await options.cache?.get(key);
  if (hit) {
    // Re-score: the cache keys the rollout, not the scorer, so a changed scorer still applies.
    const verdict = await scoreOrInfra(scorer, task, { answer: hit.answer, output: hit.output });
    if (typeof verdict === "string") return { [infraFailure]: verdict };
    cost.cachedRollouts += 1;
    return { ...hit, category: task.category, verdict, latencyMs: 0, cached: true };
  }
  const runStarted = (options.clock ?? Date).now();
  // Scrubbed the moment the agent returns it: nothing downstream ever sees a secret it printed.
  const trace = input.redactor.json(await runRollout({ options, task, sampleIndex, signal }));
  signal.throwIfAborted();
  cost.rollouts += 1;
  cost.llmCalls += trace.usage.llmCalls;
  cost.promptTokens += trace.usage.promptTokens;
  cost.completionTokens += trace.usage.completionTokens;
  cost.costUsd += trace.usage.costUsd;
  const llmError = trace.events.find((event) => event.kind === "llm-error");
  if (llmError) return { [infraFailure]: llmError.detail ?? "llm-error" };
  const verdict = await scoreOrInfra(scorer, task, { answer: trace.answer, output: trace.output });
  if (typeof verdict === "string") return { [infraFailure]: verdict };
  const record: RolloutRecord = {
    key,
    taskId: task.id,
    category: task.category,
    harnessHash: options.harness.hash,
    model: options.provider.model,
    sampleIndex,
    output: trace.output,
    answer: trace.answer,
    verdict,
    trace,
    latencyMs: (options.clock ?? Date).now() - runStarted,
    cached: false,
  };
  await options.cache?.put(record);
  return record;
}

/** The verdict, or (as a string) why a judge model could not be reached: that is not a score. */
async function scoreOrInfra(
  scorer: Scorer,
  task: Task,
  output: { answer: string | null; output: string },
): Promise<Verdict | string> {
  try {
    return await scorer.score(task, output);
  } catch (error) {
    if (error instanceof TransportError && error.service === "llm") {
      if (isEndpointFailure(error)) throw error;
      return `judge: ${error.message}`;
    }
    throw error;
  }
}

/**
 * A failure every rollout would meet (a refused key, no quota, an unknown model or route):
 * not worth a retry per rollout, so the evaluation stops at once.
 */
export function isEndpointFailure(error: unknown): boolean {
  return (
    error instanceof TransportError &&
    error.service === "llm" &&
    !error.details.retryable &&
    [401, 403, 404, 429].includes(error.details.status ?? 0)
  );
}

async function runRollout(input: {
  options: EvaluateOptions;
  task: Task;
  sampleIndex: number;
  signal: AbortSignal;
}): Promise<Trace> {
  const { options, task, sampleIndex, signal } = input;
  const run = () =>
    options.adapter.run({
      task,
      harness: options.harness,
      provider: options.provider,
      sampleIndex,
      signal,
    });
  try {
    return await (options.slots ? options.slots.run(run, signal) : run());
  } catch (error) {
    // An adapter should record transport failures itself; one that throws them still yields a
    // record, unless every rollout would meet the same failure.
    if (isEndpointFailure(error)) throw error;
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
