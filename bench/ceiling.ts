/**
 * `npx tsx bench/ceiling.ts DIR [--out FILE]`: each arm against the ceiling of its world (issue
 * #27 item 1), for a bench folder written before bench.json carried the ceiling fields: the same
 * figures `ecdysis bench` now writes itself (src/bench/ceiling.ts, journal-spend.ts,
 * ceiling-markdown.ts), computed from the folder's generated projects' ground truth and each
 * run's journal (src/bench/rescore-folder.ts). Figures are printed (or written to FILE), never
 * asserted. `bench/rescore.ts` re-renders the whole bench.md the same way.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ceilingTable } from "../src/bench/ceiling-markdown.js";
import { rescoreRun } from "../src/bench/rescore-folder.js";
import { benchResultSchema } from "../src/bench/types.js";

async function main(): Promise<void> {
  const [dir, flag, out] = process.argv.slice(2);
  if (!dir) throw new Error("usage: tsx bench/ceiling.ts DIR [--out FILE]");
  const bench = benchResultSchema.parse(
    JSON.parse(await readFile(path.join(dir, "bench.json"), "utf8")),
  );
  const runs = await Promise.all(bench.runs.map((run) => rescoreRun(dir, run)));
  const text = `${ceilingTable(runs)}\n`;
  if (flag === "--out" && out) await writeFile(out, text);
  else process.stdout.write(text);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
