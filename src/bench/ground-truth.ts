import { readFile } from "node:fs/promises";
import { z } from "zod";
import { InputError } from "../errors/input-error.js";

/**
 * Deficiency kinds the sim calls model-specific: per-item slips, per-sample flakiness and
 * prompt sensitivity (borderline items that flip with any prompt change). No
 * general harness change fixes them; an edit aimed at them is an accommodation.
 */
const modelSpecificKinds = [
  "item-slip",
  "flaky",
  "prompt-sensitivity",
  "flake",
  "flakiness",
  "model-specific",
] as const;

/** One deficiency that hits a task under the seed harness, as the sim's ground truth says. */
export const taskDeficiencySchema = z.object({
  kind: z.string(),
  /** Whether a harness change can mitigate it; derived from `kind` when the file omits it. */
  systematic: z.boolean(),
});
export type TaskDeficiency = z.infer<typeof taskDeficiencySchema>;

/** What the bench knows about one task from ground truth. */
export const taskTruthSchema = z.object({
  taskId: z.string(),
  split: z.string().optional(),
  family: z.string().optional(),
  /** The distinctive entity of the task; a harness that names it holds an item-specific hint. */
  keyPhrase: z.string().optional(),
  expected: z.string().optional(),
  deficiencies: z.array(taskDeficiencySchema),
});
export type TaskTruth = z.infer<typeof taskTruthSchema>;

/** Ground truth indexed by task id. */
export interface GroundTruth {
  tasks: Map<string, TaskTruth>;
}

/** Whether a deficiency kind is model-specific (per-item slip or per-sample flake). */
function isModelSpecificKind(kind: string): boolean {
  return (modelSpecificKinds as readonly string[]).includes(kind.toLowerCase());
}

const deficiencyInputSchema = z.union([
  z.string().transform((kind) => ({
    kind,
    model: undefined as string | undefined,
    systematic: !isModelSpecificKind(kind),
  })),
  z
    .object({
      kind: z.string(),
      systematic: z.boolean().optional(),
      class: z.string().optional(),
      model: z.string().optional(),
    })
    .passthrough()
    .transform((value) => ({
      kind: value.kind,
      model: value.model,
      systematic:
        value.systematic ??
        (value.class ? value.class === "systematic" : !isModelSpecificKind(value.kind)),
    })),
]);

const taskInputSchema = z
  .object({
    taskId: z.string().optional(),
    id: z.string().optional(),
    split: z.string().optional(),
    family: z.string().optional(),
    category: z.string().optional(),
    keyPhrase: z.string().optional(),
    expected: z.unknown().optional(),
    deficiencies: z.array(deficiencyInputSchema).default([]),
    /** Deficiencies that only bite once a mitigation changes the request (systematic). */
    latent: z.array(z.string()).default([]),
  })
  .passthrough()
  .refine(
    (value) => value.taskId !== undefined || value.id !== undefined,
    "a task needs 'taskId' or 'id'",
  );

const fileSchema = z.union([
  z.object({ tasks: z.array(taskInputSchema) }).passthrough(),
  z.array(taskInputSchema),
]);

/**
 * Parses the per-task ground truth the sim writes beside a world's task files. Item slips are
 * keyed by model name; with `model`, slips listed for other models are dropped. Latent
 * deficiencies (those a mitigation exposes, e.g. a malformed first calculator call) count as
 * systematic.
 */
export function parseGroundTruth(
  value: unknown,
  file: string,
  options: { model?: string } = {},
): GroundTruth {
  const parsed = fileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(file, issue?.message ?? "not a ground-truth file", {
      field: issue?.path.join("."),
    });
  }
  const list = Array.isArray(parsed.data) ? parsed.data : parsed.data.tasks;
  const tasks = new Map<string, TaskTruth>();
  for (const entry of list) {
    const taskId = (entry.taskId ?? entry.id) as string;
    tasks.set(taskId, {
      taskId,
      split: entry.split,
      family: entry.family ?? entry.category,
      keyPhrase: entry.keyPhrase,
      expected: entry.expected === undefined ? undefined : stringifyExpected(entry.expected),
      deficiencies: [
        ...entry.deficiencies
          .filter(
            (deficiency) =>
              !options.model || !deficiency.model || deficiency.model === options.model,
          )
          .map(({ kind, systematic }) => ({ kind, systematic })),
        ...entry.latent.map((kind) => ({ kind, systematic: true })),
      ],
    });
  }
  return { tasks };
}

/** Reads and parses a `ground-truth.json` file. */
export async function readGroundTruth(
  file: string,
  options: { model?: string } = {},
): Promise<GroundTruth> {
  const text = await readFile(file, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError(file, `not valid JSON: ${(error as Error).message}`);
  }
  return parseGroundTruth(json, file, options);
}

function stringifyExpected(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
