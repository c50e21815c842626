import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { InputError } from "../errors/input-error.js";
import { type BudgetTracker, emptySpend, type Spend } from "./budget.js";

/**
 * The shape of the stage outputs this code writes and replays. A journal of another format (an
 * earlier Ecdysis: its diagnoses and refinements were other records) is refused, not replayed.
 */
export const journalFormat = 2;

const headerSchema = z.object({
  type: z.literal("header"),
  /** Absent in the first format. */
  format: z.number().int().optional(),
  runKey: z.string(),
  configHash: z.string(),
  strategy: z.string(),
});
const entrySchema = z.object({
  type: z.literal("stage"),
  stage: z.string(),
  output: z.unknown(),
  spend: z.record(z.string(), z.number()),
  /** The run's training clock (ms) when the stage finished. */
  clockMs: z.number().optional(),
});
/** One finished stage in journal.jsonl. */
export type JournalEntry = z.infer<typeof entrySchema>;

/**
 * journal.jsonl of an evolve run: a header line, then one line per finished stage with its
 * output and the uncached spend it cost. Re-running into the same folder counts the spend of
 * every finished stage and replays their outputs instead of running them; a different config
 * is refused.
 */
export class Journal {
  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, JournalEntry>,
    private readonly budget: BudgetTracker,
    private readonly afterStage?: (stage: string) => void,
    private readonly redact: <T>(value: T) => T = (value) => value,
  ) {}

  /** Opens (or creates) the journal in `outDir`. */
  static async open(options: {
    outDir: string;
    runKey: string;
    configHash: string;
    strategy: string;
    budget: BudgetTracker;
    afterStage?: (stage: string) => void;
    /** Scrubs every stage output before it is written (the run's secrets, credential shapes). */
    redact?: <T>(value: T) => T;
  }): Promise<Journal> {
    const file = path.join(options.outDir, "journal.jsonl");
    const entries = new Map<string, JournalEntry>();
    let text: string | undefined;
    try {
      text = await readFile(file, "utf8");
    } catch {
      text = undefined;
    }
    if (text === undefined || text.trim() === "") {
      await mkdir(options.outDir, { recursive: true });
      const header = {
        type: "header",
        format: journalFormat,
        runKey: options.runKey,
        configHash: options.configHash,
        strategy: options.strategy,
      };
      await writeFile(file, `${JSON.stringify(header)}\n`);
    } else {
      for (const entry of readJournal({ file, text, ...options })) entries.set(entry.stage, entry);
    }
    options.budget.add(replayedSpend([...entries.values()]));
    return new Journal(file, entries, options.budget, options.afterStage, options.redact);
  }

  /** Names of the finished stages. */
  finished(): string[] {
    return [...this.entries.keys()];
  }

  /** Runs a stage once: a finished one returns its recorded output (its spend counted at open). */
  async stage<T>(name: string, run: () => Promise<T>): Promise<T> {
    const done = this.entries.get(name);
    if (done) return done.output as T;
    // Only this stage's own spend is recorded: stages may run concurrently.
    const { value, spend } = await this.budget.measure(run);
    // Round-trip through JSON (and the scrub) so a fresh run continues with exactly what a
    // resumed run would read.
    const output = this.redact(JSON.parse(JSON.stringify(value ?? null)) as T);
    const recorded: Partial<Spend> = {};
    for (const key of Object.keys(emptySpend()) as (keyof Spend)[])
      if (spend[key] !== 0) recorded[key] = spend[key];
    const entry: JournalEntry = {
      type: "stage",
      stage: name,
      output,
      spend: recorded,
      clockMs: this.budget.snapshot().wallMs,
    };
    await appendFile(this.file, `${JSON.stringify(entry)}\n`);
    this.entries.set(name, entry);
    this.afterStage?.(name);
    return output;
  }
}

/** The finished stages of a journal, after checking its header is this run's. */
function readJournal(options: {
  file: string;
  text: string;
  runKey: string;
  configHash: string;
  strategy: string;
}): JournalEntry[] {
  const { file } = options;
  const lines = options.text.split("\n").filter((line) => line.trim() !== "");
  const header = headerSchema.safeParse(JSON.parse(lines[0] ?? "{}"));
  if (!header.success)
    throw new InputError(file, "is not an Ecdysis run journal; choose another --out folder", {
      line: 1,
    });
  const format = header.data.format ?? 1;
  if (format !== journalFormat)
    throw new InputError(
      file,
      `was written by another version of Ecdysis (journal format ${format}; this one reads ${journalFormat}), so its finished stages cannot be replayed; write to another --out folder`,
      { line: 1 },
    );
  if (header.data.runKey !== options.runKey)
    throw new InputError(
      file,
      `holds a run of another configuration (config hash ${header.data.configHash.slice(0, 12)}, strategy ${header.data.strategy}; ` +
        `now ${options.configHash.slice(0, 12)}, ${options.strategy}); resume it with the same config or write to another --out folder`,
      { line: 1 },
    );
  const entries: JournalEntry[] = [];
  for (const line of lines.slice(1)) {
    // A line cut short by a kill is the stage that did not finish: it simply runs again.
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    const entry = entrySchema.safeParse(parsed);
    if (entry.success) entries.push(entry.data);
  }
  return entries;
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
