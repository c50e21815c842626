import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The worlds bundled with Ecdysis: files `worlds/<name>.yaml`, served by src/sim. The list lives
 * here, with the config, because it is part of what a `model.world` value may be; src/sim reads
 * it from here (a test there checks that every name has its file and every file its name).
 */
export const bundledWorldNames = [
  "quickstart",
  "systematic",
  "noisy",
  "sparse",
  "neutral",
  "plainspoken",
  "model-noise",
  "mediocre-refiner",
] as const;

/** The name of a bundled world. */
export type BundledWorldName = (typeof bundledWorldNames)[number];

/**
 * How a `world` value (config `model.world`, a `--world` flag) is read: a bare name — letters,
 * digits and dashes only — names a bundled world; anything else is a world file path.
 */
export function isWorldName(value: string): boolean {
  return /^[a-z0-9-]+$/i.test(value);
}

/** Whether `value` is the name of a bundled world. */
export function isBundledWorld(value: string): value is BundledWorldName {
  return (bundledWorldNames as readonly string[]).includes(value);
}

/**
 * What is wrong with a `world` value, if anything: a bare name that is not a bundled world (a
 * typo). A path is not checked here; it is read when the world loads.
 */
export function worldNameProblem(value: string): string | undefined {
  if (!isWorldName(value) || isBundledWorld(value)) return undefined;
  return `unknown world '${value}': bundled worlds are ${bundledWorldNames.join(", ")}; a world file is a path such as ./my-world.yaml`;
}

/**
 * The bundled `worlds/` folder, found by walking up from this module (works from src/ and dist/).
 * Here, with the names, so that a stage keying rollouts by a world's file (`rolloutParams`) finds
 * it without importing the sim.
 */
export function worldsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, "worlds");
    if (existsSync(join(candidate, "quickstart.yaml"))) return candidate;
    dir = dirname(dir);
  }
  throw new Error("sim: bundled worlds folder not found");
}
