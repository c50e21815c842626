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
  /** Task inputs; an edit may not copy any 8-word run of them. */
  forbiddenInputs: z.array(z.string()),
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
