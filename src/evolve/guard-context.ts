import path from "node:path";
import type { LoadedConfig } from "../config/config-schema.js";
import type { Task } from "../config/task-schema.js";
import { labelWords } from "../harness/label-words.js";
import type { GuardContextLike } from "./deps.js";

/** Renders an expected value as the strings an answer leak would contain. */
function expectedStrings(expected: unknown): string[] {
  if (expected === null || expected === undefined) return [];
  if (typeof expected === "string") return [expected];
  if (typeof expected === "number" || typeof expected === "boolean") return [String(expected)];
  if (Array.isArray(expected)) return expected.flatMap(expectedStrings);
  return [JSON.stringify(expected)];
}

/**
 * The guard context of a run: editable globs from the config; protected paths (the config file,
 * both task files, a command scorer's script); and the expected answers and inputs of train AND
 * held-out tasks. Only the guard sees held-out data; no role ever does.
 */
export function buildGuardContext(options: {
  loaded: LoadedConfig;
  train: Task[];
  heldout: Task[];
}): GuardContextLike {
  const { loaded, train, heldout } = options;
  const { config, root } = loaded;
  const protectedPaths = [
    loaded.path,
    path.resolve(root, config.tasks.train),
    path.resolve(root, config.tasks.heldout),
  ];
  const scorers = [config.tasks.scorer, ...[...train, ...heldout].map((task) => task.scorer)];
  for (const scorer of scorers) {
    if (scorer?.kind !== "command") continue;
    // The scorer command is a shell line; every word that names an existing-looking path is protected.
    for (const word of scorer.command.split(/\s+/))
      if (/[./]/.test(word)) protectedPaths.push(path.resolve(root, word));
  }
  const all = [...train, ...heldout];
  return {
    editable: [...config.harness.editable],
    protectedPaths: [...new Set(protectedPaths)],
    forbiddenStrings: [...new Set(all.flatMap((task) => expectedStrings(task.expected)))].filter(
      (text) => text.trim() !== "",
    ),
    forbiddenInputs: all.map((task) => task.input),
    labelWords: labelWords({ train, heldout, scorer: config.tasks.scorer }),
  };
}
