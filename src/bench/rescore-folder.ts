import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  ceilingFigures,
  heldoutCeiling,
  heldoutSystematicTasks,
  probeWithSpend,
} from "./ceiling.js";
import { computeComparisons } from "./comparisons.js";
import { readGroundTruth } from "./ground-truth.js";
import { spendByIteration } from "./journal-spend.js";
import { summariseArms } from "./summary.js";
import { type BenchResult, type BenchRun, benchResultSchema } from "./types.js";

/** The agent model of the bench's generated projects (its ground truth is read for it). */
const agentModel = "sim-1";

/**
 * One recorded run with the figures a later version of the bench derives from what the bench
 * folder already holds — the world × seed's ground truth (`projects/<world>-seed<N>/`) and the
 * run's journal (`runs/<run>/evolve/journal.jsonl`): the ceiling figures, the spend on each
 * probe point and the held-out tasks with a systematic deficiency. Nothing is run again.
 */
export async function rescoreRun(dir: string, run: BenchRun): Promise<BenchRun> {
  const project = path.join(dir, "projects", `${run.world}-seed${run.seed}`);
  const truth = await readGroundTruth(path.join(project, "ground-truth.json"), {
    model: agentModel,
  });
  const refiner = run.refiner === "neutral" ? "-neutral-refiner" : "";
  const name = `${run.world}-seed${run.seed}-b${run.budgetEvals}${refiner}-${run.strategy}`;
  const spent = await spendByIteration(path.join(dir, "runs", name, "evolve", "journal.jsonl"));
  const probe = probeWithSpend(run.probe ?? null, spent);
  return {
    ...run,
    probe,
    ...ceilingFigures({
      ceiling: heldoutCeiling(truth),
      heldoutAccuracy: run.heldoutAccuracy,
      probe,
      spent,
    }),
    heldoutSystematicTasks: heldoutSystematicTasks(truth),
  };
}

/**
 * A bench folder's `bench.json` with every run rescored (`rescoreRun`) and the arm summaries
 * and comparisons computed again from them, with the bench's own bootstrap settings: what the
 * current bench would report for the same runs.
 */
export async function rescoreBench(dir: string): Promise<BenchResult> {
  const bench = benchResultSchema.parse(
    JSON.parse(await readFile(path.join(dir, "bench.json"), "utf8")),
  );
  const runs = await Promise.all(bench.runs.map((run) => rescoreRun(dir, run)));
  return {
    ...bench,
    runs,
    arms: summariseArms(runs),
    comparisons: computeComparisons(runs, bench.settings.bootstrap),
  };
}
