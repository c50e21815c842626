import { z } from "zod";
import { plannedEditSchema } from "../harness/types.js";

/**
 * The evolve loop's view of what src/diagnose and src/refine return. The loop and the reports
 * read only these fields; `source` keeps the stage's own object so it can be handed back
 * (refine receives the patterns it was diagnosed with) and saved with the run.
 */
export const patternViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(["systematic", "model-specific"]),
  /** Why it was classified so (`singleton`, `narrow`, `flaky`, `model-only`, `recurring` …). */
  reasons: z.array(z.string()),
  module: z.string().optional(),
  support: z.object({
    tasks: z.number().int(),
    categories: z.number().int(),
    categoryNames: z.array(z.string()),
  }),
  taskIds: z.array(z.string()),
  memberKeys: z.array(z.string()),
  examples: z.array(
    z.object({
      taskId: z.string(),
      rolloutKey: z.string().optional(),
      note: z.string().optional(),
    }),
  ),
  source: z.unknown().optional(),
});
/** One failure pattern as the loop and the reports see it. */
export type PatternView = z.infer<typeof patternViewSchema>;

/** A diagnosis of one batch. */
export const diagnosisViewSchema = z.object({
  patterns: z.array(patternViewSchema),
  evidenceCount: z.number().int(),
  source: z.unknown().optional(),
});
/** A diagnosis of one batch as the loop sees it. */
export type DiagnosisView = z.infer<typeof diagnosisViewSchema>;

/** One role's turn in the refinement debate. */
export const roleTurnSchema = z.object({
  role: z.string(),
  round: z.number().int(),
  output: z.unknown(),
});
/** One role's turn in the refinement debate. */
export type RoleTurn = z.infer<typeof roleTurnSchema>;

/** The outcome of `refine` / `reflect`. */
export const refinementViewSchema = z.object({
  verdict: z.enum(["accepted", "rejected"]),
  reason: z.string().optional(),
  /** One-paragraph summary of the Harness Modification Specification (what, where, why). */
  hmsSummary: z.string(),
  hms: z.unknown(),
  rounds: z.number().int(),
  roles: z.array(roleTurnSchema),
  /** Planned edits, not yet guarded. */
  edits: z.array(plannedEditSchema),
  /** Editor edits left out of `edits`, with why (dropped, invalid after repairs, refused). */
  droppedEdits: z
    .array(
      z.object({
        change: z.number().int().nullable(),
        stage: z.string(),
        reason: z.string(),
        edit: z.unknown(),
      }),
    )
    .optional(),
  source: z.unknown().optional(),
});
/** The outcome of `refine` / `reflect` as the loop sees it. */
export type RefinementView = z.infer<typeof refinementViewSchema>;

/** A proposal the loop rejected, remembered and passed to later refinement calls. */
export const rejectedProposalViewSchema = z.object({
  hmsSummary: z.string(),
  reason: z.string(),
  patterns: z.array(z.string()),
  hms: z.unknown().optional(),
  /** The guarded edits that were tried (a later identical proposal is dropped unvalidated). */
  edits: z.array(plannedEditSchema).optional(),
  /**
   * A change pruned by per-change attribution (it fixed none of its own targets while the rest
   * of its proposal was in force — possibly masked by another failure): an attempt at its
   * patterns, shown with them, but not a rejected proposal.
   */
  pruned: z.boolean().optional(),
  /** The harness the edits were tried on (a pruned change may be retried on another one). */
  parentHash: z.string().optional(),
  /** Tried on an earlier harness than the one being refined now. */
  earlierHarness: z.boolean().optional(),
  /** The roles proposed no change at all: its patterns are not attempted again on `parentHash`. */
  nothingProposed: z.boolean().optional(),
});
/** A proposal the loop rejected. */
export type RejectedProposalView = z.infer<typeof rejectedProposalViewSchema>;
