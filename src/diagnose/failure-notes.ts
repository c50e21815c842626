import type { Task } from "../config/task-schema.js";
import type { RolloutRecord } from "../eval/types.js";
import type { ReplyKind } from "../llm/reply-kind.js";
import type { ChatProvider } from "../llm/types.js";
import type { Evidence } from "./evidence.js";
import { failureNotesTemplate } from "./prompts/failure-notes.js";
import { failureNotesJsonSchema, failureNotesReplySchema } from "./reply-schemas.js";
import { askStructured, isStructuredOutputFailure } from "./structured-ask.js";
import { untrustedText } from "./untrusted-text.js";

/** Failures described per `failure_notes` call unless the caller says otherwise. */
export const defaultNotesPerCall = 8;

/**
 * Failures noted per failure signature (the signals a failure shows, `signalKey`) at most, spread
 * over its categories. The rest of the signature takes the cause its noted peers were given
 * (`inheritCauses`): past a handful, more notes of one signature tell the merge nothing new, and
 * a batch of thousands would otherwise pay a note per failure.
 */
export const defaultNotesPerSignature = 6;

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
function failureExcerpt(options: {
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
 * The failures to note: per signature at most `perSignature`, taken in turn from its categories
 * (batch order within each), so a signature seen in several categories is noted in each. In
 * signature order, so one call sees failures that fail alike together.
 */
export function failuresToNote(evidence: Evidence[], perSignature: number): Evidence[] {
  const bySignature = new Map<string, Evidence[]>();
  for (const item of evidence)
    bySignature.set(item.signalKey, [...(bySignature.get(item.signalKey) ?? []), item]);
  return [...bySignature.values()].flatMap((members) => {
    const byCategory = new Map<string, Evidence[]>();
    for (const item of members)
      byCategory.set(item.category, [...(byCategory.get(item.category) ?? []), item]);
    const queues = [...byCategory.values()];
    const chosen: Evidence[] = [];
    for (let round = 0; chosen.length < Math.min(perSignature, members.length); round++)
      for (const queue of queues)
        if (queue[round] && chosen.length < perSignature) chosen.push(queue[round]);
    return chosen;
  });
}

/**
 * Asks the refiner for a short note and a kebab-case cause per failure: at most `notesPerSignature`
 * failures of each signature are noted (`failuresToNote`), `notesPerCall` per call, the calls
 * concurrently. Ids are call-local (`f1…` within each call). Unknown ids are ignored; a noted
 * failure the reply leaves out — or a chunk whose reply stays malformed after repair — keeps cause
 * `unexplained`; a failure that was not noted takes its signature's cause (`inherited`).
 * `onReplies` hears the kind of every reply (usable, empty, refused…), for the reply tally.
 */
export async function writeFailureNotes(options: {
  evidence: Evidence[];
  records: RolloutRecord[];
  tasks: Task[];
  refiner: ChatProvider;
  notesPerCall?: number;
  notesPerSignature?: number;
  onReplies?: (replies: ReplyKind[]) => void;
}): Promise<Evidence[]> {
  const perCall = Math.max(1, options.notesPerCall ?? defaultNotesPerCall);
  const chosen = failuresToNote(
    options.evidence,
    Math.max(1, options.notesPerSignature ?? defaultNotesPerSignature),
  );
  const chunks: Evidence[][] = [];
  for (let start = 0; start < chosen.length; start += perCall)
    chunks.push(chosen.slice(start, start + perCall));
  const replies = await Promise.all(chunks.map((chunk) => noteChunk(chunk, options)));
  const notes = new Map<string, { note: string; cause: string }>();
  for (const note of replies.flat()) {
    if (!notes.has(note.id))
      notes.set(note.id, { note: untrustedText(note.note, 300), cause: kebabCause(note.cause) });
  }
  const noted = options.evidence.map((evidence) => {
    const found = notes.get(evidence.id);
    return found
      ? { ...evidence, note: found.note, cause: found.cause }
      : { ...evidence, note: "", cause: "unexplained" };
  });
  const asked = new Set(chosen.map((item) => item.id));
  return inheritCauses(noted, asked);
}

/** One `failure_notes` call; its notes under the batch's ids (none when the reply stayed unusable). */
async function noteChunk(
  chunk: Evidence[],
  options: Parameters<typeof writeFailureNotes>[0],
): Promise<{ id: string; note: string; cause: string }[]> {
  const recordsByKey = new Map(options.records.map((record) => [record.key, record]));
  const tasksById = new Map(options.tasks.map((task) => [task.id, task]));
  const byLocalId = new Map<string, Evidence>();
  const failures = chunk.flatMap((evidence) => {
    const record = recordsByKey.get(evidence.rolloutKey);
    if (!record) return [];
    const id = `f${byLocalId.size + 1}`;
    byLocalId.set(id, evidence);
    return [failureExcerpt({ id, evidence, record, task: tasksById.get(evidence.taskId) })];
  });
  try {
    const { value, replies } = await askStructured({
      provider: options.refiner,
      schemaName: "failure_notes",
      purpose: "failure-notes",
      instructions: failureNotesTemplate,
      evidence: { failures },
      jsonSchema: failureNotesJsonSchema,
      schema: failureNotesReplySchema,
    });
    options.onReplies?.(replies);
    return value.notes.flatMap((note) => {
      const evidence = byLocalId.get(note.id);
      return evidence ? [{ ...note, id: evidence.id }] : [];
    });
  } catch (error) {
    if (!isStructuredOutputFailure(error)) throw error;
    options.onReplies?.(error.replies);
    return [];
  }
}

/**
 * A failure that was not noted takes the most frequent cause of the noted failures of its
 * signature and category, else of its signature (`inherited: true`, no note of its own); with
 * none noted it stays `unexplained`.
 */
function inheritCauses(evidence: Evidence[], asked: ReadonlySet<string>): Evidence[] {
  const causes = new Map<string, string[]>();
  for (const item of evidence) {
    if (!asked.has(item.id) || item.cause === "unexplained") continue;
    for (const key of [`${item.signalKey}|${item.category}`, item.signalKey])
      causes.set(key, [...(causes.get(key) ?? []), item.cause]);
  }
  return evidence.map((item) => {
    if (asked.has(item.id)) return item;
    const peers =
      causes.get(`${item.signalKey}|${item.category}`) ?? causes.get(item.signalKey) ?? [];
    const cause = mostFrequent(peers);
    return cause ? { ...item, cause, inherited: true } : item;
  });
}

function mostFrequent(labels: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))[0]?.[0];
}
