/**
 * `npx tsx bench/ceiling.ts DIR [--out FILE]`: each arm against the ceiling of its world (issue
 * #27 item 1), for a bench folder written before bench.json carried the ceiling fields: the same
 * figures `ecdysis bench` now writes itself (src/bench/ceiling.ts, journal-spend.ts,
 * ceiling-markdown.ts), computed from the folder's generated projects' ground truth and each
 * run's journal. Figures are printed (or written to FILE), never asserted.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { ceilingFigures, heldoutCeiling } from "../src/bench/ceiling.js";
import { ceilingTable } from "../src/bench/ceiling-markdown.js";
import { readGroundTruth } from "../src/bench/ground-truth.js";
import { spendByIteration } from "../src/bench/journal-spend.js";
import { type BenchRun, benchResultSchema } from "../src/bench/types.js";

/** The agent model of the bench's generated projects (its ground truth is read for it). */
const agentModel = "sim-1";

async function withCeiling(dir: string, run: BenchRun): Promise<BenchRun> {
  const project = path.join(dir, "projects", `${run.world}-seed${run.seed}`);
  const truth = await readGroundTruth(path.join(project, "ground-truth.json"), {
    model: agentModel,
  });
  const refiner = run.refiner === "neutral" ? "-neutral-refiner" : "";
  const name = `${run.world}-seed${run.seed}-b${run.budgetEvals}${refiner}-${run.strategy}`;
  const spent = await spendByIteration(path.join(dir, "runs", name, "evolve", "journal.jsonl"));
  return {
    ...run,
    ...ceilingFigures({
      ceiling: heldoutCeiling(truth),
      heldoutAccuracy: run.heldoutAccuracy,
      probe: run.probe ?? null,
      spent,
    }),
  };
}

async function main(): Promise<void> {
  const [dir, flag, out] = process.argv.slice(2);
  if (!dir) throw new Error("usage: tsx bench/ceiling.ts DIR [--out FILE]");
  const bench = benchResultSchema.parse(
    JSON.parse(await readFile(path.join(dir, "bench.json"), "utf8")),
  );
  const runs = await Promise.all(bench.runs.map((run) => withCeiling(dir, run)));
  const text = `${ceilingTable(runs)}\n`;
  if (flag === "--out" && out) await writeFile(out, text);
  else process.stdout.write(text);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
