/**
 * The targeted flip test: whether a candidate's fixes landed on the tasks its diagnosis named
 * beyond what a perturbation of the same size would do. Statistics only; what it decides is
 * `acceptance.ts` (docs/acceptance-statistics.md says what it guarantees).
 *
 * Null hypothesis: the edit is a perturbation — which batch tasks flip (either way) does not
 * depend on whether the diagnosis named them. Conditional on the number of flipped tasks, the
 * flipped set is then a uniform draw from the batch (a permutation test), so the number of
 * named failing tasks among the flips is hypergeometric. Its background is measured, not
 * assumed: every flip of a task the edit did not aim at (a passing task broken, another
 * failing task fixed, a re-draw's spontaneous flip) widens the draw and raises p. Unlike the
 * fair-coin McNemar test, a fix of 3 named tasks with nothing else flipping on a 40-task batch
 * gives p = 1/C(40, 3), not 1/8.
 */
import type { PairedComparison } from "./paired-test.js";

/** Sum of log k for k = 1..n. */
function logFactorial(n: number): number {
  let total = 0;
  for (let k = 2; k <= n; k++) total += Math.log(k);
  return total;
}

function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return Number.NEGATIVE_INFINITY;
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/**
 * Upper tail P[X ≥ hits] of the hypergeometric X: `draws` items drawn without replacement from
 * `population` items of which `marked` are marked.
 */
export function hypergeometricUpperTail(
  hits: number,
  population: number,
  marked: number,
  draws: number,
): number {
  if (hits <= 0) return 1;
  const total = logChoose(population, draws);
  let tail = 0;
  for (let k = hits; k <= Math.min(marked, draws); k++)
    tail += Math.exp(logChoose(marked, k) + logChoose(population - marked, draws - k) - total);
  return Math.min(1, tail);
}

/** The targeted test on one paired comparison. */
export interface TargetedFlips {
  /** Batch tasks compared. */
  n: number;
  /** Named tasks: failing under the parent and members of the patterns the edit addressed. */
  targets: number;
  /** Tasks flipped either way. */
  flips: number;
  /** Named tasks fixed. */
  fixedTargets: number;
  /** Flips of tasks the edit did not aim at, per such task: the measured background rate. */
  backgroundRate: number;
  /** P[at least `fixedTargets` of `flips` random flips land on the named tasks]. */
  pValue: number;
}

/** The targeted test: `targets` are the task ids the addressed patterns named (failing before). */
export function targetedFlips(
  comparison: PairedComparison,
  targets: ReadonlySet<string>,
): TargetedFlips {
  const fixedTargets = comparison.fixed.filter((id) => targets.has(id)).length;
  const flips = comparison.fixed.length + comparison.broken.length;
  const named = Math.min(targets.size, comparison.n);
  const others = comparison.n - named;
  return {
    n: comparison.n,
    targets: named,
    flips,
    fixedTargets,
    backgroundRate: others > 0 ? (flips - fixedTargets) / others : 0,
    pValue: hypergeometricUpperTail(fixedTargets, comparison.n, named, flips),
  };
}

/**
 * The smallest p the targeted test can give a fix of `fixed` named tasks on a batch of `n`:
 * every one fixed and nothing else flipping. A fix the test could not accept even so is not
 * worth an attempt at this evidence.
 */
export function attainableTargetedP(n: number, fixed: number): number {
  return hypergeometricUpperTail(fixed, n, fixed, fixed);
}

/**
 * The power of the targeted test at level `alpha`: the chance it accepts a fix of all `targets`
 * named tasks when every other task of the batch flips independently at `backgroundRate`.
 */
export function targetedPower(options: {
  n: number;
  targets: number;
  backgroundRate: number;
  alpha: number;
}): number {
  const { n, targets, alpha } = options;
  const others = n - targets;
  const rate = Math.min(1, Math.max(0, options.backgroundRate));
  let power = 0;
  for (let extra = 0; extra <= others; extra++) {
    const p = hypergeometricUpperTail(targets, n, targets, targets + extra);
    if (p >= alpha) break; // p grows with the extra flips: no larger count passes either
    power += binomialPmf(extra, others, rate);
  }
  return Math.min(1, power);
}

/** P[Bin(trials, rate) = k]. */
function binomialPmf(k: number, trials: number, rate: number): number {
  if (rate <= 0) return k === 0 ? 1 : 0;
  if (rate >= 1) return k === trials ? 1 : 0;
  return Math.exp(logChoose(trials, k) + k * Math.log(rate) + (trials - k) * Math.log1p(-rate));
}
