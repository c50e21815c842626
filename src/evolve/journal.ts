import { appendFile, mkdir, readFile, rename, rm, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { type BudgetTracker, emptySpend, type Spend } from "./budget.js";
import {
  appendJournalLine,
  type JournalEntry,
  journalFormat,
  type LocatedEntry,
  readJournalText,
} from "./journal-file.js";
import type { RunKeyParts } from "./run-key.js";

export { type JournalEntry, journalFormat } from "./journal-file.js";

/** Options of `Journal.open`. */
export interface JournalOptions {
  outDir: string;
  runKey: string;
  /** What the run key covers; a journal of other parts is refused naming the ones that changed. */
  parts: RunKeyParts;
  budget: BudgetTracker;
  afterStage?: (stage: string) => void;
  /** Scrubs every stage output before it is written (the run's secrets, credential shapes). */
  redact?: <T>(value: T) => T;
  /** Discard a journal already in `outDir` and start over (`--restart`). */
  restart?: boolean;
  /** Told of what was repaired or recomputed (a dropped last line, a replayed output that was invalid). */
  warn?: (message: string) => void;
}

/**
 * journal.jsonl of an evolve run: a header line (the run key and its parts), then one line per
 * finished stage with its output and the uncached spend it cost. Re-running into the same
 * folder counts the spend of every finished stage and replays their outputs instead of running
 * them; a journal of other inputs is refused, naming what changed. A last line cut short by a
 * kill is dropped (that stage runs again); a replayed output that fails its stage's schema is
 * recomputed; any other damage is an InputError naming the file and line.
 */
export class Journal {
  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, LocatedEntry>,
    private readonly options: JournalOptions,
    /** Lines in the file (the next entry's line number is one more). */
    private lines: number,
  ) {}

  /** The last append under way: appends run one after another, so each knows its line. */
  private writing: Promise<unknown> = Promise.resolve();

  /** Opens (or creates) the journal in `outDir`. */
  static async open(options: JournalOptions): Promise<Journal> {
    const file = path.join(options.outDir, "journal.jsonl");
    const entries = new Map<string, LocatedEntry>();
    let finished: JournalEntry[] = [];
    let lines = 1;
    if (options.restart) await rm(file, { force: true });
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined || text.trim() === "") {
      await mkdir(options.outDir, { recursive: true });
      const header = {
        type: "header",
        format: journalFormat,
        runKey: options.runKey,
        parts: options.parts,
      };
      // Written whole (temp file + rename): a kill cannot leave half a header.
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(header)}\n`);
      await rename(temporary, file);
    } else {
      const read = readJournalText({ file, text, runKey: options.runKey, parts: options.parts });
      if (read.repair === "newline") await appendFile(file, "\n");
      else if (read.repair) {
        await truncate(file, read.repair.truncateTo);
        options.warn?.(
          `${file}: line ${read.repair.dropped} was cut short (the run was killed while writing it) and is dropped; that stage runs again`,
        );
      }
      // A stage recorded twice (recomputed after an invalid output) replays its last record.
      for (const located of read.entries) entries.set(located.entry.stage, located);
      finished = read.entries.map((located) => located.entry);
      lines = read.lines;
    }
    // Every recorded stage was paid for, a recomputed one too; the measurement's kept apart.
    options.budget.countMeasurement(replayedSpend(finished.filter((entry) => entry.measurement)));
    options.budget.add(replayedSpend(finished));
    return new Journal(file, entries, options, lines);
  }

  /** Names of the finished stages. */
  finished(): string[] {
    return [...this.entries.keys()];
  }

  /**
   * Runs a stage once: a finished one returns its recorded output (its spend counted at open).
   * With `schema`, a recorded output that does not match it (a damaged or foreign journal) is
   * recomputed with a warning instead of being handed on. A `measurement` stage's spend (live or
   * replayed) is the seed/final measurement's (`BudgetTracker.countMeasurement`).
   */
  async stage<T>(
    name: string,
    run: () => Promise<T>,
    options: { schema?: z.ZodType; measurement?: boolean } = {},
  ): Promise<T> {
    const { schema } = options;
    const done = this.entries.get(name);
    if (done) {
      const checked = schema?.safeParse(done.entry.output);
      if (!checked || checked.success) return done.entry.output as T;
      const issue = checked.error.issues[0];
      this.options.warn?.(
        `${this.file}: line ${done.line}: the recorded output of stage '${name}' is not valid (${issue?.path.join(".") || "output"}: ${issue?.message}); the stage runs again`,
      );
      this.entries.delete(name);
    }
    const { budget } = this.options;
    // Only this stage's own spend is recorded: stages may run concurrently.
    const { value, spend } = await budget.measure(run);
    if (options.measurement) budget.countMeasurement(spend);
    // Round-trip through JSON (and the scrub) so a fresh run continues with exactly what a
    // resumed run would read.
    const redact = this.options.redact ?? (<V>(inner: V) => inner);
    const output = redact(JSON.parse(JSON.stringify(value ?? null)) as T);
    const recorded: Partial<Spend> = {};
    for (const key of Object.keys(emptySpend()) as (keyof Spend)[])
      if (spend[key] !== 0) recorded[key] = spend[key];
    const entry: JournalEntry = {
      type: "stage",
      stage: name,
      output,
      spend: recorded,
      clockMs: budget.snapshot().wallMs,
      ...(options.measurement ? { measurement: true } : {}),
    };
    const line = await this.append(`${JSON.stringify(entry)}\n`);
    this.entries.set(name, { entry, line });
    this.options.afterStage?.(name);
    return output;
  }

  /**
   * Appends one line after the appends under way (stages finishing together would otherwise all
   * take the same next line number) and resolves to its line number.
   */
  private append(text: string): Promise<number> {
    const written = this.writing.then(async () => {
      await appendJournalLine(this.file, text, this.lines + 1);
      this.lines += 1;
      return this.lines;
    });
    // A failed append fails its own stage; the next one still waits for it, then goes on.
    this.writing = written.catch(() => undefined);
    return written;
  }
}

/**
 * What the finished stages of an earlier session spent. Every stage counts, whether or not the
 * resumed run reaches it again (a background stage started by a step that is now replayed is
 * not started again). Wall time is the training clock when the last stage finished, not the sum
 * of the stages' times: stages that ran concurrently would count their overlap twice.
 */
function replayedSpend(entries: JournalEntry[]): Partial<Spend> {
  const total: Partial<Spend> = {};
  for (const entry of entries)
    for (const [key, value] of Object.entries(entry.spend) as [keyof Spend, number][])
      total[key] = (total[key] ?? 0) + value;
  const clocks = entries.flatMap((entry) => (entry.clockMs === undefined ? [] : [entry.clockMs]));
  // Journals written before stages recorded the clock: the sum is all there is.
  if (clocks.length === entries.length && clocks.length > 0) total.wallMs = Math.max(...clocks);
  return total;
}
