import { createHash } from "node:crypto";
import { dirname, resolve } from "node:path";
import { InputError } from "../errors/input-error.js";
import { canonicalJson } from "./canonical-json.js";
import { checkConfigPaths } from "./config-paths.js";
import {
  type EcdysisConfig,
  ecdysisConfigSchema,
  type LoadedConfig,
  type ModelConfig,
} from "./config-schema.js";
import { readUserText } from "./read-text.js";
import { isWorldName, worldNameProblem } from "./world-names.js";
import { type LocatedYaml, parseLocatedYaml, validateLocated } from "./yaml-document.js";

/** Largest config file accepted (a real one is a few KB). */
const maxConfigBytes = 256 * 1024;
/** Longest string value in a config (a rubric or a command is a few hundred characters). */
const maxConfigValueChars = 16 * 1024;

/**
 * Loads `ecdysis.yml`: YAML → `ecdysisConfigSchema`, every problem an InputError naming the
 * file, line and dotted field. The file must be UTF-8 and small (`maxConfigBytes`, every string
 * value at most `maxConfigValueChars`); YAML aliases are bounded (no billion laughs). Relative
 * paths are resolved against the config's folder and checked (`checkConfigPaths`: the cache
 * folder is no file, the harness folder stays inside the repository). The hash covers the
 * parsed config as written (before resolution), so moving a checkout keeps it.
 */
export async function loadConfig(path: string): Promise<LoadedConfig> {
  const absolute = resolve(path);
  const text = await readUserText({
    file: absolute,
    what: "config file",
    maxBytes: maxConfigBytes,
  });
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
  const lines = fieldLines(located);
  checkValueSizes({ file: absolute, value: located.value, lines });
  const parsed = validateLocated({ file: absolute, located, schema: ecdysisConfigSchema });
  const root = dirname(absolute);
  const config = resolvePaths(parsed, root);
  checkWorlds({ file: absolute, located, config });
  const loaded = { config, path: absolute, root, hash: configHash(parsed), lines };
  await checkConfigPaths(loaded);
  return loaded;
}

/** The line of every dotted field written in the file (`tasks.train`, `model.quirks[0]`). */
function fieldLines(located: LocatedYaml): Record<string, number> {
  const lines: Record<string, number> = {};
  const visit = (value: unknown, path: (string | number)[], depth: number) => {
    if (path.length > 0) {
      const line = located.lineOf(path);
      if (line !== undefined) lines[dottedPath(path)] = line;
    }
    if (depth > 6 || value === null || typeof value !== "object") return;
    const entries = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
    for (const [key, item] of entries) visit(item, [...path, key], depth + 1);
  };
  visit(located.value, [], 0);
  return lines;
}

function dottedPath(path: (string | number)[]): string {
  return path.reduce<string>(
    (out, segment) =>
      typeof segment === "number" ? `${out}[${segment}]` : out ? `${out}.${segment}` : segment,
    "",
  );
}

/** Refuses an over-long string value, naming its field and line, before it is copied into every rollout. */
function checkValueSizes(input: {
  file: string;
  value: unknown;
  lines: Record<string, number>;
}): void {
  const visit = (value: unknown, path: (string | number)[]) => {
    if (typeof value === "string" && value.length > maxConfigValueChars) {
      const field = dottedPath(path);
      throw new InputError(
        input.file,
        `the value is ${value.length} characters; at most ${maxConfigValueChars} are accepted`,
        { line: input.lines[field], field },
      );
    }
    if (value === null || typeof value !== "object") return;
    const entries = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
    for (const [key, item] of entries) visit(item, [...path, key]);
  };
  visit(input.value, []);
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
  return createHash("sha256").update(canonicalJson(config)).digest("hex");
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
