import { appendFile } from "node:fs/promises";
import { z } from "zod";
import { InputError } from "../errors/input-error.js";
import { changedParts, type RunKeyParts, runKeyPartsSchema } from "./run-key.js";

/**
 * The shape of the stage outputs this code writes and replays, and of the header. A journal of
 * another format (an earlier Ecdysis: other records, or a run key that covered fewer inputs) is
 * refused, not replayed.
 */
export const journalFormat = 3;

const headerSchema = z.object({
  type: z.literal("header"),
  /** Absent in the first format. */
  format: z.number().int().optional(),
  runKey: z.string(),
  /** Since format 3: what the run key covers, part by part. */
  parts: runKeyPartsSchema.optional(),
});
/** The first line of journal.jsonl. */
export type JournalHeader = z.infer<typeof headerSchema>;

/** One finished stage in journal.jsonl. */
export const journalEntrySchema = z.object({
  type: z.literal("stage"),
  stage: z.string(),
  output: z.unknown(),
  spend: z.record(z.string(), z.number()),
  /** The run's training clock (ms) when the stage finished. */
  clockMs: z.number().optional(),
  /** The seed/final measurement (its spend is kept apart from training's). */
  measurement: z.literal(true).optional(),
});
/** One finished stage in journal.jsonl. */
export type JournalEntry = z.infer<typeof journalEntrySchema>;

/** A stage entry and the line of the file it is on. */
export interface LocatedEntry {
  entry: JournalEntry;
  line: number;
}

/** What reading a journal found: its entries, and the repair its last line needs, if any. */
export interface ReadJournal {
  entries: LocatedEntry[];
  /** Lines the file holds once repaired. */
  lines: number;
  /**
   * Byte length to cut the file to before appending (a last line cut short by a kill is dropped),
   * or "newline" when the last line is whole but lacks its newline.
   */
  repair?: { truncateTo: number; dropped: number } | "newline";
}

/** How to get out of a journal that cannot be resumed. */
const wayOut =
  "pass --restart to discard this journal and start the run over in the same folder, or write to a fresh --out folder";

/**
 * Reads journal.jsonl after checking its header is this run's (format and run key, naming the
 * inputs that changed). Every line must be a whole stage entry, except the last one when it was
 * cut short by a kill during an append (no newline, not JSON): that stage did not finish, and
 * `repair` says how to cut the file back. Anything else unreadable is an InputError naming the
 * file and line.
 */
export function readJournalText(options: {
  file: string;
  text: string;
  runKey: string;
  parts: RunKeyParts;
}): ReadJournal {
  const { file, text } = options;
  const rawLines = text.split("\n");
  const endsWithNewline = text.endsWith("\n");
  if (endsWithNewline) rawLines.pop();
  checkHeader({ ...options, line: rawLines[0] ?? "" });
  const entries: LocatedEntry[] = [];
  let offset = Buffer.byteLength(rawLines[0] ?? "") + 1;
  let repair: ReadJournal["repair"];
  for (let index = 1; index < rawLines.length; index++) {
    const raw = rawLines[index];
    const line = index + 1;
    const last = index === rawLines.length - 1;
    const start = offset;
    offset += Buffer.byteLength(raw) + 1;
    if (raw.trim() === "") continue;
    const parsed = parseJson(raw);
    if (parsed === undefined && last && !endsWithNewline) {
      repair = { truncateTo: start, dropped: line };
      return { entries, lines: index, repair };
    }
    if (parsed === undefined)
      throw new InputError(
        file,
        `is not valid JSON: the run journal is damaged (a stage entry cannot be read); ${wayOut}`,
        { line },
      );
    const entry = journalEntrySchema.safeParse(parsed);
    if (!entry.success) {
      const issue = entry.error.issues[0];
      const field = issue?.path.join(".") || undefined;
      throw new InputError(
        file,
        `is not a stage entry of a run journal (${issue?.message ?? "wrong shape"}); ${wayOut}`,
        { line, field },
      );
    }
    entries.push({ entry: entry.data, line });
    if (last && !endsWithNewline) repair = "newline";
  }
  return { entries, lines: rawLines.length, repair };
}

function checkHeader(options: { file: string; line: string; runKey: string; parts: RunKeyParts }) {
  const { file } = options;
  const parsed = parseJson(options.line);
  if (parsed === undefined)
    throw new InputError(
      file,
      `is not valid JSON: the run journal's header is damaged, so it cannot tell which run it holds; ${wayOut}`,
      { line: 1 },
    );
  const header = headerSchema.safeParse(parsed);
  if (!header.success)
    throw new InputError(file, `is not an Ecdysis run journal; ${wayOut}`, { line: 1 });
  const format = header.data.format ?? 1;
  if (format !== journalFormat)
    throw new InputError(
      file,
      `was written by another version of Ecdysis (journal format ${format}; this one reads ${journalFormat}), so its finished stages cannot be replayed; ${wayOut}`,
      { line: 1 },
    );
  if (header.data.runKey === options.runKey) return;
  const changed = header.data.parts ? changedParts(header.data.parts, options.parts) : [];
  throw new InputError(
    file,
    `holds a run of other inputs, so its finished stages would replay stale work: changed since it started: ${
      changed.length > 0 ? changed.join("; ") : "the run key"
    }. Resume with the same inputs, or ${wayOut}`,
    { line: 1 },
  );
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Appends one journal line in one write, so a kill leaves at most this line cut short. The
 * failpoint `ECDYSIS_FAILPOINT_JOURNAL_APPEND=N` (for the reliability tests, never set in use)
 * writes half of line N and then kills the process with SIGKILL: a real kill during an append.
 */
export async function appendJournalLine(file: string, text: string, line: number): Promise<void> {
  if (process.env.ECDYSIS_FAILPOINT_JOURNAL_APPEND === String(line)) {
    await appendFile(file, text.slice(0, Math.floor(text.length / 2)));
    process.kill(process.pid, "SIGKILL");
  }
  await appendFile(file, text);
}
