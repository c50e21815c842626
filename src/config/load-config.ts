import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { InputError } from "../errors/input-error.js";
import {
  type EcdysisConfig,
  ecdysisConfigSchema,
  type LoadedConfig,
  type ModelConfig,
} from "./config-schema.js";
import { isWorldName, worldNameProblem } from "./world-names.js";
import { type LocatedYaml, parseLocatedYaml, validateLocated } from "./yaml-document.js";

/**
 * Loads `ecdysis.yml`: YAML → `ecdysisConfigSchema`, every problem an InputError naming the
 * file, line and dotted field. Relative paths are resolved against the config's folder; the
 * hash covers the parsed config as written (before resolution), so moving a checkout keeps it.
 */
export async function loadConfig(path: string): Promise<LoadedConfig> {
  const absolute = resolve(path);
  const text = await readText(absolute);
  const located = parseLocatedYaml(absolute, text);
  if (located.value === null || typeof located.value !== "object" || Array.isArray(located.value)) {
    throw new InputError(
      absolute,
      "the config must be a YAML mapping with at least 'model', 'tasks'",
      {
        line: 1,
      },
    );
  }
  const parsed = validateLocated({ file: absolute, located, schema: ecdysisConfigSchema });
  const root = dirname(absolute);
  const config = resolvePaths(parsed, root);
  checkWorlds({ file: absolute, located, config });
  return { config, path: absolute, root, hash: configHash(parsed) };
}

/**
 * A sim model's bare `world` name must be a bundled world; a typo is reported here, against the
 * config's file, line and field, before any run starts (a path is checked when the world loads).
 */
function checkWorlds(input: { file: string; located: LocatedYaml; config: EcdysisConfig }): void {
  const { file, located, config } = input;
  const models = { model: config.model, refiner: config.refiner, probe: config.probe };
  for (const [key, model] of Object.entries(models)) {
    const world = model?.world;
    if (model?.provider !== "sim" || world === undefined) continue;
    const problem = worldNameProblem(world);
    if (problem)
      throw new InputError(file, problem, {
        line: located.lineOf([key, "world"]),
        field: `${key}.world`,
      });
  }
}

/** sha256 of a config serialised with sorted keys. */
export function configHash(config: EcdysisConfig): string {
  return createHash("sha256").update(stableStringify(config)).digest("hex");
}

/** JSON with object keys sorted at every level (stable across key order in the file). */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner && typeof inner === "object" && !Array.isArray(inner)) {
      const record = inner as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(record)
          .sort()
          .map((key) => [key, record[key]]),
      );
    }
    return inner;
  });
}

function resolvePaths(config: EcdysisConfig, root: string): EcdysisConfig {
  const model = (value: ModelConfig): ModelConfig =>
    value.world ? { ...value, world: resolveWorld(root, value.world) } : value;
  return {
    ...config,
    model: model(config.model),
    refiner: config.refiner ? model(config.refiner) : undefined,
    probe: config.probe ? model(config.probe) : undefined,
    harness: { ...config.harness, dir: resolve(root, config.harness.dir) },
    tasks: {
      ...config.tasks,
      train: resolve(root, config.tasks.train),
      heldout: resolve(root, config.tasks.heldout),
    },
    cacheDir: resolve(root, config.cacheDir),
  };
}

/** A bare name without a path separator or extension is a bundled world; anything else a file. */
function resolveWorld(root: string, world: string): string {
  return isWorldName(world) ? world : resolve(root, world);
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem =
      code === "ENOENT" ? "file not found" : `cannot read the file (${code ?? String(error)})`;
    throw new InputError(file, problem);
  }
}
