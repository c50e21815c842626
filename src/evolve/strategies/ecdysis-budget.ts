import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { mcnemarOneSided, type PairedComparison } from "../paired-test.js";
import type { RunContext } from "../run-context.js";
import { attainableTargetedP } from "../targeted-test.js";

// How Ecdysis sizes its steps to the budget left (issue #27): a step that cannot finish within
// the rollouts left is not started — it would be cut short and its proposal dropped — and the
// attempts a pattern may get grow with the budget left, so budget is not left unspent while
// systematic patterns remain. Without a rollout limit every step runs and the limit is the
// configured `maxAttemptsPerPattern`.

/**
 * Whether `cost` more rollouts fit in the budget with `reserve` still left after them — and the
 * budget not yet reached: a limit is exhausted once used up, and then nothing more is evaluated,
 * not even a cached run, so a step that spends the last rollout leaves nothing to decide with.
 */
export function affordable(context: RunContext, cost: number, reserve = 0): boolean {
  const left = context.rolloutsLeft?.();
  return left === undefined || left > cost + reserve;
}

/** Rollouts re-drawing a full batch's flips takes at most: each flip, both harnesses, `samples` times. */
export function redrawCost(full: PairedComparison, samples: number): number {
  return 2 * samples * (full.fixed.length + full.broken.length);
}

/**
 * The attempts a systematic pattern may get: `maxAttemptsPerPattern`, plus one for every two
 * batches' worth of rollouts the budget has left (an attempt costs about a batch to validate and
 * another for what follows it), at most three times the configured limit.
 */
export function attemptLimit(context: RunContext, batchSize: number): number {
  const configured = context.config.evolve.ecdysis.maxAttemptsPerPattern;
  const left = context.rolloutsLeft?.();
  if (left === undefined || batchSize <= 0) return configured;
  const extra = Math.floor(left / (2 * batchSize));
  return Math.min(3 * configured, configured + extra);
}

/**
 * Why a pattern's fix could not be accepted at this batch even if it fixed every failing member
 * and nothing else flipped, or undefined when it could: the best p of the targeted test on
 * `batchSize` tasks, or of the fair coin over every draw of the members (re-drawn when the agent
 * samples), must be below `alpha`, with at least `minFixed` members to fix.
 */
export function unacceptableAtEvidence(options: {
  pattern: FailurePattern;
  failingMembers: number;
  batchSize: number;
  alpha: number;
  minFixed: number;
  /** Draws per flipped task the re-draw test would count (1 + confirmSamples; 1 when not re-drawn). */
  draws?: number;
}): string | undefined {
  const { failingMembers, batchSize, alpha, minFixed } = options;
  if (failingMembers < minFixed)
    return `${options.pattern.name}: ${failingMembers} failing member(s) on the batch, a fix needs ≥ ${minFixed}`;
  // Re-drawn flips (a sampling agent): each member fixed on every draw.
  const draws = Math.max(1, options.draws ?? 1);
  const best = Math.min(
    attainableTargetedP(batchSize, failingMembers),
    mcnemarOneSided(failingMembers * draws, 0),
  );
  if (best >= alpha)
    return `${options.pattern.name}: even fixing all ${failingMembers} failing members of ${batchSize} tasks gives p ${best.toPrecision(2)} ≥ alpha ${alpha}`;
  return undefined;
}
