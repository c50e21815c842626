import { z } from "zod";
import { plannedEditSchema } from "../harness/types.js";

/** A failure pattern as the bench scores it: its class and the tasks of its member rollouts. */
export const patternViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["systematic", "model-specific"]),
  memberTaskIds: z.array(z.string()),
});
export type PatternView = z.infer<typeof patternViewSchema>;

/** An accepted edit with the tasks whose failures it was meant to fix. */
export const acceptedEditViewSchema = z.object({
  edit: plannedEditSchema,
  /** Tasks of the member rollouts of the addressed patterns (iterative: its minibatch failures). */
  addressedTaskIds: z.array(z.string()),
});
export type AcceptedEditView = z.infer<typeof acceptedEditViewSchema>;

/** Uncached work and the wall time it took. */
export const spendViewSchema = z.object({
  rollouts: z.number().int(),
  llmCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  wallMs: z.number(),
  /** Share (0–1) of the spend made by the refiner roles. */
  refinementShare: z.number(),
});
export type SpendView = z.infer<typeof spendViewSchema>;

const splitScoreSchema = z.object({ accuracy: z.number(), n: z.number().int() });

/**
 * The part of an evolve run the bench reads. `toEvolveOutcome` builds it from `runEvolve`'s
 * result, so the scoring depends on this small view, not on the whole result record.
 */
export const evolveOutcomeSchema = z.object({
  baseline: z.object({ train: splitScoreSchema, heldout: splitScoreSchema }),
  final: z.object({ train: splitScoreSchema, heldout: splitScoreSchema }),
  /** Spend of the training part alone (what the budget bounds): the figures strategies compete on. */
  training: spendViewSchema,
  /** Spend of the whole run, the seed and final measurements on both splits included. */
  total: spendViewSchema,
  /** Every pattern found in any iteration. */
  patterns: z.array(patternViewSchema),
  acceptedEdits: z.array(acceptedEditViewSchema),
});
export type EvolveOutcome = z.infer<typeof evolveOutcomeSchema>;
