import { z } from "zod";

// The figures of a comparison of two arms: per world × seed pair, and their medians with
// bootstrap intervals. Re-exported by types.ts, where the comparison and bench.json schemas use them.

/** A median over world × seed pairs with its bootstrap 95% interval (null: no pair had a value). */
export const estimateSchema = z.object({
  median: z.number(),
  low: z.number(),
  high: z.number(),
  n: z.number().int(),
});
export type Estimate = z.infer<typeof estimateSchema>;

/**
 * Time for both arms to reach one target held-out accuracy (one arm's best): `matched`;
 * `not-reached` (the chasing arm never reached it); `no-target` (the target is no better than
 * the seed harness: nothing to match).
 */
export const matchSchema = z.object({
  target: z.number(),
  /** Left's training time when it first reached the target (null: never). */
  leftMs: z.number().nullable(),
  /** Right's training time when it first reached the target (null: never). */
  rightMs: z.number().nullable(),
  /** rightMs / leftMs (> 1: left got there faster); forward not-reached: 0; otherwise null when undefined. */
  ratio: z.number().nullable(),
  status: z.enum(["matched", "not-reached", "no-target"]),
});
export type Match = z.infer<typeof matchSchema>;

/**
 * The same match counted in training spend instead of wall time: `left` / `right` are the
 * training rollouts (or LLM calls) spent through the iteration that made each arm's first
 * harness at the target current; ratio, status and the not-reached / no-target rules as `Match`.
 */
export const spendMatchSchema = z.object({
  target: z.number(),
  left: z.number().nullable(),
  right: z.number().nullable(),
  ratio: z.number().nullable(),
  status: z.enum(["matched", "not-reached", "no-target"]),
});
export type SpendMatch = z.infer<typeof spendMatchSchema>;

/** Every figure of one left-versus-right pair on one world × seed. */
export const pairFiguresSchema = z.object({
  world: z.string(),
  seed: z.number().int(),
  /** Left reaching right's best held-out probe accuracy: ratio T_right / T_left (> 1: left faster). */
  timeToMatch: matchSchema.nullable(),
  /** Right reaching left's best: ratio T_right / T_left as well (right never reaching it: not-reached). */
  reverse: matchSchema.nullable(),
  /** Area under probe accuracy × training time over the common horizon, left − right (0–1). */
  aucDiff: z.number().nullable(),
  wallRatio: z.number().nullable(),
  rolloutsRatio: z.number().nullable(),
  heldoutDiff: z.number(),
  /**
   * Time-to-match both ways counted in training rollouts and in LLM calls (null: a run without
   * spend on its probe points, an arm without training, or a bench.json older than these fields).
   */
  timeToMatchRollouts: spendMatchSchema.nullable().default(null),
  timeToMatchLlmCalls: spendMatchSchema.nullable().default(null),
  reverseRollouts: spendMatchSchema.nullable().default(null),
  reverseLlmCalls: spendMatchSchema.nullable().default(null),
});
export type PairFigures = z.infer<typeof pairFiguresSchema>;

/** The figures of a comparison, each a median over pairs with a bootstrap 95% interval. */
export const comparisonFiguresSchema = z.object({
  /** Left's time-to-match of right's best (not-reached as 0, no-target left out). */
  timeToMatch: estimateSchema.nullable(),
  timeToMatchNotReached: z.number().int(),
  timeToMatchNoTarget: z.number().int(),
  /** Right's time to left's best over left's, over the pairs where right reached it. */
  reverseTimeToMatch: estimateSchema.nullable(),
  reverseReached: z.number().int(),
  reverseNotReached: z.number().int(),
  reverseNoTarget: z.number().int(),
  aucDiff: estimateSchema.nullable(),
  wallRatio: estimateSchema.nullable(),
  rolloutsRatio: estimateSchema.nullable(),
  heldoutDiff: estimateSchema.nullable(),
  /**
   * The time-to-match counted in training rollouts and in LLM calls, both ways (the same
   * target, first-reach, not-reached = 0× and no-target rules; n counts the pairs whose runs
   * recorded their spend). Null in a bench.json older than these fields.
   */
  timeToMatchRollouts: estimateSchema.nullable().default(null),
  timeToMatchLlmCalls: estimateSchema.nullable().default(null),
  reverseTimeToMatchRollouts: estimateSchema.nullable().default(null),
  reverseTimeToMatchLlmCalls: estimateSchema.nullable().default(null),
});
export type ComparisonFigures = z.infer<typeof comparisonFiguresSchema>;
