import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Task } from "../config/task-schema.js";
import { seedHarnessFiles } from "./seed-harness.js";
import { generateWorld } from "./task-generation.js";
import type { World } from "./world-schema.js";

const jsonl = (tasks: Task[]) =>
  tasks.map((task) => JSON.stringify(task)).join("\n") + (tasks.length ? "\n" : "");

/**
 * Writes a world's files: tasks/train.jsonl, tasks/heldout.jsonl, harness/ (the weak seed
 * harness with knowledge.md) and ground-truth.json (read only by the benchmark).
 */
export async function generateWorldFiles(options: { world: World; outDir: string }): Promise<{
  train: string;
  heldout: string;
  harnessDir: string;
  groundTruth: string;
}> {
  const { world, outDir } = options;
  const generated = generateWorld(world);
  const paths = {
    train: join(outDir, "tasks", "train.jsonl"),
    heldout: join(outDir, "tasks", "heldout.jsonl"),
    harnessDir: join(outDir, "harness"),
    groundTruth: join(outDir, "ground-truth.json"),
  };
  await mkdir(join(outDir, "tasks"), { recursive: true });
  await mkdir(paths.harnessDir, { recursive: true });
  await writeFile(paths.train, jsonl(generated.train));
  await writeFile(paths.heldout, jsonl(generated.heldout));
  for (const [file, text] of Object.entries(seedHarnessFiles(world, generated.knowledge))) {
    await writeFile(join(paths.harnessDir, file), text);
  }
  const truth = { world: world.name, seed: world.seed, parameters: world, tasks: generated.truth };
  await writeFile(paths.groundTruth, `${JSON.stringify(truth, null, 2)}\n`);
  return paths;
}
