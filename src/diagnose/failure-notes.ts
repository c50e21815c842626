import type { Task } from "../config/task-schema.js";
import type { RolloutRecord } from "../eval/types.js";
import type { ChatProvider } from "../llm/types.js";
import { type Evidence, extractEvidence } from "./evidence.js";
import { failureNotesTemplate } from "./prompts/failure-notes.js";
import { failureNotesJsonSchema, failureNotesReplySchema } from "./reply-schemas.js";
import { askStructured, isStructuredOutputFailure } from "./structured-ask.js";
import { untrustedText } from "./untrusted-text.js";

/**
 * Failures described per `failure_notes` call unless the caller says otherwise. One: with
 * call-local ids the request is then a function of the failure alone, so a note written while
 * its batch was still running (`noteFailure`) is the very call the diagnosis makes, found in the
 * call cache. Costs the instructions once per failure instead of once per chunk.
 */
export const defaultNotesPerCall = 1;

/** Normalises a model-written cause to a short kebab-case label; `unexplained` when empty. */
export function kebabCause(cause: string, maxChars = 48): string {
  const label = cause
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxChars)
    .replace(/-+$/g, "");
  return label || "unexplained";
}

/** The compact, bounded excerpt of one failure shown to the note writer, under the call's `id`. */
export function failureExcerpt(options: {
  id: string;
  evidence: Evidence;
  record: RolloutRecord;
  task?: Task;
}) {
  const { evidence, record, task } = options;
  const calls = record.trace.steps.flatMap((step) => step.toolCalls).slice(0, 6);
  return {
    id: options.id,
    category: evidence.category,
    task: untrustedText(task?.input ?? "(task text unavailable)", 700),
    output: untrustedText(record.output || record.trace.output, 500),
    answer: record.answer === null ? null : untrustedText(record.answer, 200),
    // Only train tasks reach diagnosis, so showing the expectation leaks nothing held out.
    ...(task
      ? {
          expected: untrustedText(
            typeof task.expected === "string" ? task.expected : JSON.stringify(task.expected),
            200,
          ),
        }
      : {}),
    verdict: evidence.verdictReason,
    events: evidence.eventKinds,
    toolCalls: calls.map((call) => ({
      name: untrustedText(call.name, 40),
      arguments: untrustedText(call.arguments, 160),
      result: untrustedText(call.result, 160),
      error: call.error,
    })),
    steps: evidence.steps,
    signals: evidence.signals,
  };
}

/**
 * Asks the refiner for a short note and a kebab-case cause per failure, `notesPerCall` failures
 * per call, concurrently. Ids are call-local (`f1…` within each call), so a call does not depend
 * on where its failures sit in the batch. Unknown ids are ignored; failures the reply leaves
 * out — or a chunk whose reply stays malformed after repair — keep cause `unexplained`.
 */
export async function writeFailureNotes(options: {
  evidence: Evidence[];
  records: RolloutRecord[];
  tasks: Task[];
  refiner: ChatProvider;
  notesPerCall?: number;
}): Promise<Evidence[]> {
  const perCall = Math.max(1, options.notesPerCall ?? defaultNotesPerCall);
  const recordsByKey = new Map(options.records.map((record) => [record.key, record]));
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  const chunks: Evidence[][] = [];
  for (let start = 0; start < options.evidence.length; start += perCall) {
    chunks.push(options.evidence.slice(start, start + perCall));
  }
  const replies = await Promise.all(
    chunks.map(async (chunk) => {
      const byLocalId = new Map<string, Evidence>();
      const failures = chunk.flatMap((evidence) => {
        const record = recordsByKey.get(evidence.rolloutKey);
        if (!record) return [];
        const id = `f${byLocalId.size + 1}`;
        byLocalId.set(id, evidence);
        return [failureExcerpt({ id, evidence, record, task: tasksById.get(evidence.taskId) })];
      });
      try {
        const { value } = await askStructured({
          provider: options.refiner,
          schemaName: "failure_notes",
          purpose: "failure-notes",
          instructions: failureNotesTemplate,
          evidence: { failures },
          jsonSchema: failureNotesJsonSchema,
          schema: failureNotesReplySchema,
        });
        return value.notes.flatMap((note) => {
          const evidence = byLocalId.get(note.id);
          return evidence ? [{ ...note, id: evidence.id }] : [];
        });
      } catch (error) {
        if (isStructuredOutputFailure(error)) return [];
        throw error;
      }
    }),
  );
  const notes = new Map<string, { note: string; cause: string }>();
  for (const note of replies.flat()) {
    if (!notes.has(note.id))
      notes.set(note.id, { note: untrustedText(note.note, 300), cause: kebabCause(note.cause) });
  }
  return options.evidence.map((evidence) => {
    const found = notes.get(evidence.id);
    return found
      ? { ...evidence, note: found.note, cause: found.cause }
      : { ...evidence, note: "", cause: "unexplained" };
  });
}

/**
 * Writes the note of one failed rollout ahead of its diagnosis (e.g. while the rest of its batch
 * still runs): the same request `writeFailureNotes` makes for it at one note per call (the
 * default), so with the call cache on the diagnosis finds the reply there, or joins the call
 * still in flight.
 */
export async function noteFailure(options: {
  record: RolloutRecord;
  task?: Task;
  refiner: ChatProvider;
  stepLimit?: number;
}): Promise<void> {
  const { record, task } = options;
  await writeFailureNotes({
    evidence: [extractEvidence({ record, task, id: "f1", stepLimit: options.stepLimit })],
    records: [record],
    tasks: task ? [task] : [],
    refiner: options.refiner,
  });
}
