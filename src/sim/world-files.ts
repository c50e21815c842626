import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Task } from "../config/task-schema.js";
import { seedHarnessFiles } from "./seed-harness.js";
import { generateWorld } from "./task-generation.js";
import type { World } from "./world-schema.js";

const jsonl = (tasks: Task[]) =>
  tasks.map((task) => JSON.stringify(task)).join("\n") + (tasks.length ? "\n" : "");

/** Paths of a world's project files. */
export interface WorldFiles {
  train: string;
  heldout: string;
  harnessDir: string;
}

/**
 * Writes what a user project of a world holds: tasks/train.jsonl, tasks/heldout.jsonl and
 * harness/ (the weak seed harness with knowledge.md). Never the ground truth: which deficiency
 * hits which task is the bench's alone (src/sim/world-generator.ts).
 */
export async function generateWorldFiles(options: {
  world: World;
  outDir: string;
}): Promise<WorldFiles> {
  return (await writeWorld(options)).paths;
}

/** Writes the project files and returns them with the generated world (truth included). */
export async function writeWorld(options: { world: World; outDir: string }): Promise<{
  paths: WorldFiles;
  generated: ReturnType<typeof generateWorld>;
}> {
  const { world, outDir } = options;
  const generated = generateWorld(world);
  const paths = {
    train: join(outDir, "tasks", "train.jsonl"),
    heldout: join(outDir, "tasks", "heldout.jsonl"),
    harnessDir: join(outDir, "harness"),
  };
  await mkdir(join(outDir, "tasks"), { recursive: true });
  await mkdir(paths.harnessDir, { recursive: true });
  await writeFile(paths.train, jsonl(generated.train));
  await writeFile(paths.heldout, jsonl(generated.heldout));
  for (const [file, text] of Object.entries(seedHarnessFiles(world, generated.knowledge))) {
    await writeFile(join(paths.harnessDir, file), text);
  }
  return { paths, generated };
}
