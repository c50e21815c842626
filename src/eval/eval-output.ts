import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { InputError } from "../errors/input-error.js";
import { sortRecords } from "./merge-results.js";
import { type EvalResult, type RolloutRecord, rolloutRecordSchema } from "./types.js";

/** What an `eval --out DIR` folder holds: result files by name (`eval.json`, `eval-train.json`…) and records. */
export interface EvalOutput {
  results: Record<string, EvalResult>;
  records: RolloutRecord[];
}

async function writeAtomic(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}

/** Writes the result files (`eval.json`, `eval-<split>.json`) into `dir`. */
export async function writeEvalResults(dir: string, results: EvalOutput["results"]): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, result] of Object.entries(results)) {
    await writeAtomic(join(dir, name), `${JSON.stringify(result, null, 2)}\n`);
  }
}

/** Writes the result files and `records.jsonl` (canonical order) into `dir`. */
export async function writeEvalOutput(dir: string, output: EvalOutput): Promise<void> {
  await writeEvalResults(dir, output.results);
  const lines = sortRecords(output.records).map((record) => JSON.stringify(record));
  await writeAtomic(join(dir, "records.jsonl"), lines.length ? `${lines.join("\n")}\n` : "");
}

/** Reads an eval output folder; a missing or invalid file is an InputError naming it. */
export async function readEvalOutput(dir: string): Promise<EvalOutput> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    throw new InputError(dir, "not a folder written by 'ecdysis eval --out'");
  }
  const results: Record<string, EvalResult> = {};
  for (const name of names.filter((file) => /^eval(-[a-z]+)?\.json$/.test(file)).sort()) {
    const path = join(dir, name);
    try {
      results[name] = JSON.parse(await readFile(path, "utf8")) as EvalResult;
    } catch (error) {
      throw new InputError(path, `unreadable result (${(error as Error).message})`);
    }
  }
  if (!results["eval.json"]) throw new InputError(join(dir, "eval.json"), "file not found");
  const recordsPath = join(dir, "records.jsonl");
  let text: string;
  try {
    text = await readFile(recordsPath, "utf8");
  } catch {
    throw new InputError(recordsPath, "file not found");
  }
  const records = text
    .split("\n")
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => line.trim() !== "")
    .map(({ line, number }) => {
      try {
        return rolloutRecordSchema.parse(JSON.parse(line));
      } catch (error) {
        throw new InputError(
          recordsPath,
          `invalid rollout record (${(error as Error).message.slice(0, 200)})`,
          { line: number },
        );
      }
    });
  return { results, records };
}
