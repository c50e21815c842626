import { z } from "zod";
import type { Task } from "../config/task-schema.js";
import type { RolloutRecord } from "../eval/types.js";

/** Deterministic evidence of one failed rollout: signals read from its trace and verdict. */
export const evidenceSchema = z.object({
  /** Short id used in role prompts (`f1`, `f2`, …), unique within one diagnosis. */
  id: z.string(),
  rolloutKey: z.string(),
  taskId: z.string(),
  category: z.string(),
  sampleIndex: z.number().int(),
  verdictReason: z.string(),
  /** Distinct event kinds of the trace, in first-seen order. */
  eventKinds: z.array(z.string()),
  steps: z.number().int(),
  /** The configured step budget when known (from a step-limit event or the caller). */
  stepLimit: z.number().int().nullable(),
  toolCalls: z.number().int(),
  toolErrors: z.number().int(),
  toolNames: z.array(z.string()),
  answerExtracted: z.boolean(),
  gaveUp: z.boolean(),
  /** The model said it does not know how to do the task (a task outside what it can do, not a runtime fault). */
  unknownTask: z.boolean().default(false),
  /** The task statement was lost to context overflow. */
  taskDropped: z.boolean(),
  /** |answer − expected| when both are numbers, else null. */
  numericDistance: z.number().nullable(),
  /** Sorted signal labels. */
  signals: z.array(z.string()),
  /** Canonical grouping key: the sorted signal labels joined with `+`. */
  signalKey: z.string(),
  /** LLM-written failure note and its kebab-case cause (`unexplained` when none came back). */
  note: z.string().default(""),
  /** The cause grouping uses: the label canonicalised against the signals (`canonicaliseCauses`). */
  cause: z.string().default("unexplained"),
  /** The cause label as the note writer wrote it, when canonicalisation changed or kept it. */
  label: z.string().optional(),
  /**
   * The failure was not noted (its signature had enough noted peers): its cause is theirs
   * (`writeFailureNotes`).
   */
  inherited: z.boolean().optional(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

const gaveUpWording =
  /\b((can(no|'|’)t|unable to|not able to) (determine|answer|finish|complete|solve|proceed|compute|continue)|give up|giving up|gave up|not enough information|no way to (know|tell|look up|determine|find)|(do not|don't) know)\b/i;
/**
 * A model saying it does not know how to do the task at all (`I don't know how to do this
 * task`, `That is not a kind of question I can answer`) — not a lost statement, not giving up
 * after trouble: no harness change teaches a model a task it cannot do.
 */
const unknownTaskWording =
  /\b(i (do not|don['’]t|dont) know how to (do|solve|answer|approach) (this|that|these|the)\b|(this|that|it) is not a (kind|type|sort) of (task|question|problem) i (can|know how to)\b)/i;

/** Whether a reply says the model does not know how to do the task (see `unknownTaskWording`). */
export function saysUnknownTask(output: string): boolean {
  return unknownTaskWording.test(output);
}

const cannotSeeTask =
  /\b(can(no|')t|unable to|do not|don't) (see|find) (the |a |any )?(question|task|problem)\b/i;

/** Parses a number from an answer or expectation (`1,234`, ` 3.5 `, `-2`); null when not numeric. */
export function parseNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  const text = value.trim().replace(/,(?=\d{3}\b)/g, "");
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return null;
  const parsed = Number(text);
  return Number.isFinite(parsed) ? parsed : null;
}

function stepLimitOf(record: RolloutRecord, fallback: number | undefined): number | null {
  const event = record.trace.events.find((candidate) => candidate.kind === "step-limit");
  const fromDetail = event?.detail?.match(/\d+/)?.[0];
  if (fromDetail) return Number(fromDetail);
  return fallback ?? null;
}

/** Whether the agent lost sight of its task: it says so, or an overflow dropped it. */
function saysTaskDropped(trace: RolloutRecord["trace"], output: string): boolean {
  return (
    cannotSeeTask.test(output) ||
    trace.events.some(
      (event) =>
        event.kind === "context-overflow" &&
        /\b(task|question)\b/i.test(event.detail ?? "") &&
        /drop|lost|remov/i.test(event.detail ?? ""),
    )
  );
}

/** How far a numeric answer is from a numeric expected value; null unless both are numbers. */
function numericDistanceOf(task: Task | undefined, answer: string | null): number | null {
  const expectedNumber = task ? parseNumber(task.expected) : null;
  const answerNumber = answer === null ? null : parseNumber(answer);
  return expectedNumber !== null && answerNumber !== null
    ? Math.abs(answerNumber - expectedNumber)
    : null;
}

/**
 * Reads the deterministic signals of one failed rollout. `stepLimit` is the harness's
 * `agent_loop.max_steps` when the caller knows it.
 */
export function extractEvidence(options: {
  record: RolloutRecord;
  task?: Task;
  id: string;
  stepLimit?: number;
}): Evidence {
  const { record, task } = options;
  const trace = record.trace;
  const eventKinds = [...new Set(trace.events.map((event) => event.kind))];
  const calls = trace.steps.flatMap((step) => step.toolCalls);
  const toolErrors = calls.filter((call) => call.error).length;
  const stepLimit = stepLimitOf(record, options.stepLimit);
  const answer = record.answer ?? trace.answer;
  const output = record.output || trace.output;
  const unknownTask = saysUnknownTask(output);
  const gaveUp = !unknownTask && gaveUpWording.test(output);
  const overflow = eventKinds.includes("context-overflow");
  const taskDropped = saysTaskDropped(trace, output);
  const numericDistance = numericDistanceOf(task, answer);

  const signals = new Set<string>(eventKinds);
  signals.add(record.verdict.reason || "failed");
  if (answer === null) signals.add("no-answer");
  if (gaveUp) signals.add("gave-up");
  if (unknownTask) signals.add("unknown-task");
  if (taskDropped) signals.add("task-dropped");
  if (overflow) signals.add("context-overflow");
  if (toolErrors > 0) signals.add("tool-error");
  if (calls.length === 0) signals.add("no-tool-calls");
  if (stepLimit !== null && trace.steps.length >= stepLimit) signals.add("step-limit");
  if (numericDistance !== null && numericDistance > 0) signals.add("numeric-mismatch");
  const sorted = [...signals].sort();

  return {
    id: options.id,
    rolloutKey: record.key,
    taskId: record.taskId,
    category: record.category,
    sampleIndex: record.sampleIndex,
    verdictReason: record.verdict.reason,
    eventKinds,
    steps: trace.steps.length,
    stepLimit,
    toolCalls: calls.length,
    toolErrors,
    toolNames: [...new Set(calls.map((call) => call.name))].sort(),
    answerExtracted: answer !== null,
    gaveUp,
    unknownTask,
    taskDropped,
    numericDistance,
    signals: sorted,
    signalKey: sorted.join("+"),
    note: "",
    cause: "unexplained",
  };
}

/** Evidence for every failed record of a batch, ids `f1…fn` in record order. */
export function extractBatchEvidence(options: {
  records: RolloutRecord[];
  tasks: Task[];
  stepLimit?: number;
}): Evidence[] {
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  return options.records
    .filter((record) => !record.verdict.pass)
    .map((record, index) =>
      extractEvidence({
        record,
        task: tasksById.get(record.taskId),
        id: `f${index + 1}`,
        stepLimit: options.stepLimit,
      }),
    );
}
