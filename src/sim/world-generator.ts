/**
 * The sim's ground truth and its world generator: for `src/bench` (and the sim's own tests)
 * only. Which deficiency hits which task is what the bench scores against; the pipeline must
 * never see it, so nothing here is exported from `src/sim/index.ts`, and
 * `src/bench/ground-truth-boundary.test.ts` fails when anything outside src/bench and src/sim
 * imports it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeWorld } from "./world-files.js";
import type { World } from "./world-schema.js";

export { type GroundTruthEntry, groundTruthKey } from "./ground-truth-log.js";
export { diagnosisAccuracy } from "./refiner/analysis-roles.js";
export {
  type GeneratedWorld,
  generateWorld,
  type TaskDeficiency,
  type TaskTruth,
} from "./task-generation.js";

/**
 * Writes a world's project files (tasks, seed harness) and, beside them, `ground-truth.json`:
 * per task, the deficiencies that hit it under the seed harness, its key phrase and answer.
 */
export async function generateWorldWithTruth(options: { world: World; outDir: string }): Promise<{
  train: string;
  heldout: string;
  harnessDir: string;
  groundTruth: string;
}> {
  const { world, outDir } = options;
  const { paths, generated } = await writeWorld(options);
  const groundTruth = join(outDir, "ground-truth.json");
  const truth = { world: world.name, seed: world.seed, parameters: world, tasks: generated.truth };
  await writeFile(groundTruth, `${JSON.stringify(truth, null, 2)}\n`);
  return { ...paths, groundTruth };
}
