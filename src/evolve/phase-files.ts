import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { InputError } from "../errors/input-error.js";
import { addSpend, emptySpend, type Spend, spendSchema } from "./budget.js";
import { stopReasonSchema } from "./result-schema.js";

// What the phases of a run hand each other (docs/scale-out.md). The search writes
// `search.json` beside its journal; each measure shard writes what it spent into the cache
// folder, which travels with its rollouts, so merging the shards' caches (copying their files
// into one folder) brings the spend along.

/** The file the search phase leaves in the run folder for the measure shards and the finish. */
export const searchHandoffFile = "search.json";

/** What the measure shards need to know of a finished search. */
export const searchHandoffSchema = z.object({
  schemaVersion: z.literal(1),
  /** The run key of the search (every input that determines the result). */
  runKey: z.string().min(1),
  seedHash: z.string().min(1),
  /** Hash of the final harness, written to `harness/` beside this file. */
  finalHash: z.string().min(1),
  /** Samples per task of the final measurement (the strategy's). */
  finalSamples: z.number().int().positive(),
  /** Why the search stopped, and the last iteration's words on it (a silent stop's cause). */
  stoppedBy: stopReasonSchema.optional(),
  stopDetail: z.string().optional(),
});
/** What the measure shards need to know of a finished search. */
export type SearchHandoff = z.infer<typeof searchHandoffSchema>;

/** Writes `search.json` (atomically) into the run folder. */
export async function writeSearchHandoff(outDir: string, handoff: SearchHandoff): Promise<void> {
  const file = path.join(outDir, searchHandoffFile);
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(handoff, null, 2)}\n`);
  await rename(temporary, file);
}

/** Reads `search.json`; an InputError that says to run the search first when it is absent or damaged. */
export async function readSearchHandoff(outDir: string): Promise<SearchHandoff> {
  const file = path.join(outDir, searchHandoffFile);
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined)
    throw new InputError(
      file,
      "no finished search in this folder: run 'ecdysis evolve --phase search' into it first (or download the search job's artifact here)",
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(file, `is not JSON (${(error as Error).message}): run the search again`);
  }
  const parsed = searchHandoffSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InputError(file, `is not a search handoff: ${issue.message}`, {
    field: issue.path.map(String).join(".") || undefined,
  });
}

/** Where the measure shards of runs record what they spent, inside the cache folder. */
function spendFolder(cacheDir: string): string {
  return path.join(cacheDir, "measured");
}

const shardSpendSchema = z.object({
  runKey: z.string(),
  shard: z.object({ index: z.number().int().min(0), count: z.number().int().positive() }),
  spend: spendSchema,
});

/**
 * Records what one measure shard spent (its uncached rollouts, calls, tokens and cost; no wall
 * time), under a name of its own: two attempts of one shard both count, as both were paid.
 */
export async function writeShardSpend(options: {
  cacheDir: string;
  runKey: string;
  shard: { index: number; count: number };
  spend: Spend;
}): Promise<void> {
  const folder = spendFolder(options.cacheDir);
  await mkdir(folder, { recursive: true });
  const { index, count } = options.shard;
  const name = `${options.runKey.slice(0, 16)}-${index + 1}-of-${count}-${randomBytes(4).toString("hex")}.json`;
  const temporary = path.join(folder, `.${name}.tmp`);
  const record = { runKey: options.runKey, shard: options.shard, spend: options.spend };
  await writeFile(temporary, `${JSON.stringify(record)}\n`);
  await rename(temporary, path.join(folder, name));
}

/**
 * The spend the measure shards of `runKey` recorded, summed, and the shards they covered
 * (`I/N` labels, for the log). A file of another run, or one that does not parse, is skipped.
 */
export async function readShardSpend(options: {
  cacheDir: string;
  runKey: string;
}): Promise<{ spend: Spend; shards: string[] }> {
  const folder = spendFolder(options.cacheDir);
  const names = await readdir(folder).catch(() => [] as string[]);
  let spend = emptySpend();
  const shards: string[] = [];
  for (const name of names.filter((each) => each.endsWith(".json")).sort()) {
    if (!name.startsWith(options.runKey.slice(0, 16))) continue;
    const record = parseShardSpend(await readFile(path.join(folder, name), "utf8").catch(() => ""));
    if (!record || record.runKey !== options.runKey) continue;
    spend = addSpend(spend, { ...record.spend, wallMs: 0 });
    shards.push(`${record.shard.index + 1}/${record.shard.count}`);
  }
  return { spend, shards };
}

function parseShardSpend(text: string): z.infer<typeof shardSpendSchema> | undefined {
  try {
    const parsed = shardSpendSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
