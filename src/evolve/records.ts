import type { Task } from "../config/task-schema.js";
import { extractBatchEvidence } from "../diagnose/evidence.js";
import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import type { PassMap } from "./paired-test.js";
import type { TraceExcerpt } from "./result-schema.js";
import type { Score } from "./validation.js";

/** Task id → pass of an evaluation. */
export function passMapOf(result: EvalResult): Map<string, boolean> {
  return new Map(result.tasks.map((task) => [task.taskId, task.pass]));
}

/** Keeps only the given task ids. */
export function restrictPassMap(map: PassMap, taskIds: ReadonlySet<string>): Map<string, boolean> {
  return new Map([...map].filter(([taskId]) => taskIds.has(taskId)));
}

/** Accuracy, n and interval of an evaluation. */
export function scoreOf(result: EvalResult): Score {
  return {
    accuracy: result.accuracy,
    n: result.n,
    interval: result.interval,
    ...(result.infraErrors ? { infraErrors: result.infraErrors } : {}),
  };
}

const maxText = 1500;

function clip(text: string): string {
  return text.length > maxText ? `${text.slice(0, maxText)}…` : text;
}

/** A bounded excerpt of a rollout for the report. */
export function traceExcerpt(record: RolloutRecord): TraceExcerpt {
  return {
    key: record.key,
    taskId: record.taskId,
    category: record.category,
    output: clip(record.output),
    answer: record.answer,
    verdict: { pass: record.verdict.pass, reason: record.verdict.reason },
    events: record.trace.events.map((event) => event.kind),
    steps: record.trace.steps.slice(0, 12).map((step) => ({
      assistant: step.assistant === null ? null : clip(step.assistant),
      toolCalls: step.toolCalls.map((call) => ({
        ...call,
        arguments: clip(call.arguments),
        result: clip(call.result),
      })),
    })),
  };
}

/** The first record of each task that failed in the evaluation (one per failing task). */
export function failingRecords(result: EvalResult, records: RolloutRecord[]): RolloutRecord[] {
  const passes = passMapOf(result);
  const seen = new Set<string>();
  const failing: RolloutRecord[] = [];
  for (const record of records) {
    if (passes.get(record.taskId) !== false || record.verdict.pass || seen.has(record.taskId))
      continue;
    seen.add(record.taskId);
    failing.push(record);
  }
  return failing;
}

/** Trace excerpts of the patterns' example rollouts, one per rollout, for the report. */
export function patternTraces(
  patterns: FailurePattern[],
  records: RolloutRecord[],
): TraceExcerpt[] {
  const byKey = new Map(records.map((rollout) => [rollout.key, rollout]));
  const byTask = new Map(records.map((rollout) => [rollout.taskId, rollout]));
  const traces: TraceExcerpt[] = [];
  for (const pattern of patterns) {
    for (const example of pattern.examples) {
      const rollout =
        (example.rolloutKey && byKey.get(example.rolloutKey)) || byTask.get(example.taskId);
      if (rollout && !traces.some((trace) => trace.key === rollout.key))
        traces.push(traceExcerpt(rollout));
    }
  }
  return traces;
}

/**
 * Tasks that fail under both harnesses, but differently: none of the deterministic signal sets
 * (src/diagnose `extractEvidence`: events, tool errors, step limit, missing answer, …) of the
 * task's failing draws under `after` is among those under `before`. The change acted on them —
 * a retry hint that now runs into the step budget — and another failure masks whatever it fixed.
 */
export function failingDifferently(options: {
  before: RolloutRecord[];
  after: RolloutRecord[];
  tasks: Task[];
  stepLimits: { before?: number; after?: number };
}): string[] {
  const keysOf = (records: RolloutRecord[], stepLimit?: number) => {
    const keys = new Map<string, Set<string>>();
    for (const evidence of extractBatchEvidence({ records, tasks: options.tasks, stepLimit })) {
      const set = keys.get(evidence.taskId) ?? new Set<string>();
      set.add(evidence.signalKey);
      keys.set(evidence.taskId, set);
    }
    return keys;
  };
  const passedAfter = new Set(options.after.filter((r) => r.verdict.pass).map((r) => r.taskId));
  const before = keysOf(options.before, options.stepLimits.before);
  const after = keysOf(options.after, options.stepLimits.after);
  const shifted: string[] = [];
  for (const [taskId, keys] of after) {
    const earlier = before.get(taskId);
    if (!earlier || passedAfter.has(taskId)) continue;
    if (![...keys].some((key) => earlier.has(key))) shifted.push(taskId);
  }
  return shifted.sort();
}
