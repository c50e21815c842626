import { z } from "zod";
import { labelWordSchema } from "./label-words.js";

/** What the deterministic guards check every edit against (see docs/stage-interfaces.md). */
export const guardContextSchema = z.object({
  /** Globs relative to the harness folder that edits may touch. */
  editable: z.array(z.string().min(1)),
  /** Absolute paths (config, task files, scorer scripts) no edit may resolve to or into. */
  protectedPaths: z.array(z.string()),
  /** Expected answers of train and held-out tasks; an edit may not introduce them. */
  forbiddenStrings: z.array(z.string()),
  /**
   * Expected answers that are label words (a scorer's choices, the answer of many train tasks, a
   * word of the train inputs; see `labelWords`): an edit may introduce them and is flagged for
   * the reviewer instead of refused. Absent: every checkable expected answer is refused.
   */
  labelWords: z.array(labelWordSchema).optional(),
  /** Task inputs; an edit may not copy any 8-word run of them, nor the input reworded. */
  forbiddenInputs: z.array(z.string()),
  /**
   * The tasks of both splits, each input with its expected answers: an answer too small to
   * refuse anywhere (an integer under 100, a two-digit decimal, a unit constant, under 3 characters) is refused on a line that names
   * its task; a held-out answer is refused spelled out or as an arithmetic step too. Their
   * inputs and answers are checked like `forbiddenInputs` and `forbiddenStrings`.
   */
  tasks: z
    .array(z.object({ input: z.string(), answers: z.array(z.string()), heldout: z.boolean() }))
    .optional(),
  /**
   * The seed harness's files (path → text): their lines are never evidence that an edit copied
   * a task input (a seed's knowledge file may name every person of the registry). Absent, the
   * harness before each edit plays that part.
   */
  seedFiles: z.record(z.string(), z.string()).optional(),
  /**
   * Values of the configured secrets (API keys read through `apiKeyEnv`, the GitHub token): no
   * edit may bring one into the harness in any form, whatever its shape.
   */
  secretValues: z.array(z.string()).optional(),
  maxFileBytes: z.number().int().positive().optional(),
  maxEditBytes: z.number().int().positive().optional(),
});
/** Guard settings for applyEdits. */
export type GuardContext = z.infer<typeof guardContextSchema>;
