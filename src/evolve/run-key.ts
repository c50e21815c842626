import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { canonicalJson } from "../config/canonical-json.js";
import type { LoadedConfig, ModelConfig } from "../config/config-schema.js";
import type { Splits } from "../config/split-overlap.js";
import type { Task } from "../config/task-schema.js";
import { rolloutParams } from "../eval/rollout-params.js";
import type { LoadedHarness } from "../harness/types.js";

/**
 * Everything that determines what an evolve run computes, one hash (or value) per part. A
 * journal holds the parts it was written under; a resume whose parts differ is another run and
 * is refused, naming the parts that changed (`changedParts`).
 */
export const runKeyPartsSchema = z
  .object({
    /** The config file as written (`LoadedConfig.hash`): strategy settings, budget, scorer spec, models. */
    config: z.string(),
    /** The strategy (the config's or `--strategy`). */
    strategy: z.string(),
    /** `--limit`, or "none". */
    limit: z.string(),
    /** Content hash of the seed harness folder. */
    seedHarness: z.string(),
    /** The train tasks as loaded (ids, inputs, expectations, categories, per-task scorers, order). */
    trainTasks: z.string(),
    /** The held-out tasks as loaded. */
    heldoutTasks: z.string(),
    /**
     * What answers each role: model name, sampling parameters and endpoint identity — for the
     * sim its world file's content and behaviour version (`rolloutParams`).
     */
    models: z.string(),
    /** The scorer spec and the files a `command` scorer names in the config folder. */
    scorer: z.string(),
    /** The Ecdysis version that wrote the journal ("unknown" when the caller did not say). */
    ecdysis: z.string(),
  })
  .strict();
/** The parts of a run key. */
export type RunKeyParts = z.infer<typeof runKeyPartsSchema>;

/** How each part is named when it changed. */
const partNames: Record<keyof RunKeyParts, string> = {
  seedHarness: "the seed harness",
  trainTasks: "the train tasks",
  heldoutTasks: "the held-out tasks",
  config: "the config file",
  strategy: "the strategy",
  models: "the models (model, parameters or simulated world)",
  scorer: "the scorer",
  limit: "--limit",
  ecdysis: "the Ecdysis version",
};

/** The parts that are shown as values rather than hashes when they change. */
const shownAsValue = new Set<keyof RunKeyParts>(["strategy", "limit", "ecdysis"]);

/** The run key parts of a run about to start. */
export async function runKeyParts(input: {
  loaded: LoadedConfig;
  strategy: string;
  limit?: number;
  seed: LoadedHarness;
  splits: Splits;
  ecdysisVersion?: string;
}): Promise<RunKeyParts> {
  const { loaded } = input;
  const { config } = loaded;
  const roles: [string, ModelConfig | undefined][] = [
    ["model", config.model],
    ["refiner", config.refiner],
    ["probe", config.probe],
    ["judge", config.judge],
  ];
  const models = Object.fromEntries(
    roles.flatMap(([role, model]) =>
      model ? [[role, { model: model.model, params: rolloutParams(model) }]] : [],
    ),
  );
  return {
    config: loaded.hash,
    strategy: input.strategy,
    limit: input.limit === undefined ? "none" : String(input.limit),
    seedHarness: input.seed.hash,
    trainTasks: tasksHash(input.splits.train),
    heldoutTasks: tasksHash(input.splits.heldout),
    models: sha256(canonicalJson(models)),
    scorer: await scorerHash(loaded),
    ecdysis: input.ecdysisVersion ?? "unknown",
  };
}

/** The run key: one hash over every part. */
export function runKeyOf(parts: RunKeyParts): string {
  return sha256(canonicalJson(parts));
}

/**
 * What differs between the parts a journal was written under and this run's, in words
 * (`the seed harness (3f2a… → 9c01…)`, `--limit (5 → none)`). Empty when nothing differs.
 */
export function changedParts(before: RunKeyParts, now: RunKeyParts): string[] {
  return (Object.keys(partNames) as (keyof RunKeyParts)[])
    .filter((part) => before[part] !== now[part])
    .map((part) => {
      const show = (value: string) => (shownAsValue.has(part) ? value : value.slice(0, 12));
      return `${partNames[part]} (${show(before[part])} → ${show(now[part])})`;
    });
}

function tasksHash(tasks: Task[]): string {
  return sha256(canonicalJson(tasks));
}

/**
 * The scorer's identity: its spec (also in the config hash), and for a `command` scorer the
 * content of every word of the command that names a file in the config folder (`python
 * score.py` → score.py): editing the script changes every verdict.
 */
async function scorerHash(loaded: LoadedConfig): Promise<string> {
  const spec = loaded.config.tasks.scorer;
  const files: Record<string, string> = {};
  if (spec.kind === "command") {
    for (const word of spec.command.split(/\s+/).filter(Boolean)) {
      const file = path.resolve(loaded.root, word.replace(/^['"]|['"]$/g, ""));
      const content = await readFile(file).catch(() => undefined);
      if (content) files[word] = createHash("sha256").update(content).digest("hex");
    }
  }
  return sha256(canonicalJson({ spec, files }));
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
