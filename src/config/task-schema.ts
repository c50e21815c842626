import { z } from "zod";

/** Whether `flags` is a set of JavaScript regular expression flags (`new RegExp` would take it). */
function validRegexFlags(flags: string): boolean {
  try {
    new RegExp("", flags);
    return true;
  } catch {
    return false;
  }
}

/** How an output is compared with `expected`. */
export const scorerSpecSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("exact") }).strict(),
  z
    .object({
      kind: z.literal("numeric"),
      tolerance: z.number().min(0).default(1e-6),
      relative: z.boolean().default(false),
    })
    .strict(),
  z
    .object({
      kind: z.literal("regex"),
      flags: z.string().default("i").refine(validRegexFlags, {
        message: "not valid regular expression flags (use letters of 'dgimsuvy', each once)",
      }),
    })
    .strict(),
  z.object({ kind: z.literal("contains") }).strict(),
  z.object({ kind: z.literal("choice"), choices: z.array(z.string()).min(2) }).strict(),
  z.object({ kind: z.literal("json_subset") }).strict(),
  z
    .object({
      kind: z.literal("command"),
      command: z.string().min(1),
      timeoutMs: z.number().int().positive().default(30_000),
    })
    .strict(),
  z
    .object({
      kind: z.literal("llm_judge"),
      rubric: z.string().min(1),
      passThreshold: z.number().min(0).max(1).default(0.5),
    })
    .strict(),
]);
export type ScorerSpec = z.infer<typeof scorerSpecSchema>;

/** One line of a tasks JSONL file. */
export const taskSchema = z
  .object({
    id: z.string().min(1).max(200),
    input: z.string().min(1),
    expected: z.unknown().refine((value) => value !== undefined, "'expected' is required"),
    category: z.string().min(1).max(100).default("default"),
    scorer: scorerSpecSchema.optional(),
  })
  .strict();
export type Task = z.infer<typeof taskSchema>;
export type Split = "train" | "heldout";
