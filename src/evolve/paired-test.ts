/**
 * The paired tests acceptance rests on: outcomes of two harnesses on the same tasks (or the same
 * draws), their discordant pairs, and the one-sided exact McNemar p-value. Statistics only; what
 * they decide is `acceptance.ts`.
 */
import { z } from "zod";

/** Outcome per task id (pass or fail) of one harness on a set of tasks. */
export type PassMap = ReadonlyMap<string, boolean>;

/** The discordant tasks of a paired comparison of two harnesses on the same tasks. */
export const pairedComparisonSchema = z.object({
  /** Tasks both sides ran. */
  n: z.number().int(),
  /** Passes before and after. */
  before: z.number().int(),
  after: z.number().int(),
  /** Failed before, pass after (sorted task ids). */
  fixed: z.array(z.string()),
  /** Passed before, fail after (sorted task ids). */
  broken: z.array(z.string()),
  /**
   * Failed before and after, but differently (other deterministic signals; sorted task ids):
   * the change acted on them and another failure masks it. Set by cheap validation.
   */
  shifted: z.array(z.string()).optional(),
  /** One-sided exact McNemar p-value that `after` is better (P[X ≥ fixed], X ~ Bin(fixed+broken, ½)). */
  pValue: z.number(),
});
/** The discordant tasks of a paired comparison. */
export type PairedComparison = z.infer<typeof pairedComparisonSchema>;

/** Sum of log k for k = 1..n. */
function logFactorial(n: number): number {
  let total = 0;
  for (let k = 2; k <= n; k++) total += Math.log(k);
  return total;
}

/** Upper tail P[X ≥ successes] of Binomial(trials, ½), computed in log space so large n does not underflow. */
export function binomialUpperTail(successes: number, trials: number): number {
  if (successes <= 0) return 1;
  if (successes > trials) return 0;
  const logN = logFactorial(trials);
  let total = 0;
  for (let k = successes; k <= trials; k++) {
    total += Math.exp(logN - logFactorial(k) - logFactorial(trials - k) - trials * Math.LN2);
  }
  return Math.min(1, total);
}

/** One-sided exact McNemar test on the discordant pairs: small p means `fixed` outnumbers `broken` beyond noise. */
export function mcnemarOneSided(fixed: number, broken: number): number {
  return binomialUpperTail(fixed, fixed + broken);
}

/** Pairs two outcome maps over the tasks both contain. */
export function comparePaired(before: PassMap, after: PassMap): PairedComparison {
  const fixed: string[] = [];
  const broken: string[] = [];
  let n = 0;
  let passesBefore = 0;
  let passesAfter = 0;
  for (const [taskId, passedBefore] of before) {
    const passedAfter = after.get(taskId);
    if (passedAfter === undefined) continue;
    n += 1;
    if (passedBefore) passesBefore += 1;
    if (passedAfter) passesAfter += 1;
    if (!passedBefore && passedAfter) fixed.push(taskId);
    if (passedBefore && !passedAfter) broken.push(taskId);
  }
  fixed.sort();
  broken.sort();
  return {
    n,
    before: passesBefore,
    after: passesAfter,
    fixed,
    broken,
    pValue: mcnemarOneSided(fixed.length, broken.length),
  };
}

/**
 * One draw of a task under one harness: whether it passed, and what it said (its output and
 * extracted answer, in one string): two draws that said the same thing are one observation.
 */
export interface Draw {
  pass: boolean;
  said: string;
}

/** The draws per (task, sample index) of one harness. */
export type SampleOutcomes = ReadonlyMap<string, ReadonlyMap<number, Draw>>;

/** Paired outcomes counted per sample draw over the discordant tasks, with their p-value. */
export const sampleComparisonSchema = z.object({
  /** Sample pairs (same task, same sample index) compared, repeats included. */
  pairs: z.number().int(),
  /**
   * Pairs that repeat an earlier pair of the same task word for word on both sides (same output
   * and answer under the parent and under the candidate): counted once, not in fixed/broken.
   */
  repeats: z.number().int().default(0),
  /** Distinct pairs failed under the parent and passed under the candidate. */
  fixed: z.number().int(),
  /** Distinct pairs passed under the parent and failed under the candidate. */
  broken: z.number().int(),
  /** One-sided exact McNemar p-value over the distinct sample pairs. */
  pValue: z.number(),
});
/** Paired outcomes counted per sample draw. */
export type SampleComparison = z.infer<typeof sampleComparisonSchema>;

/**
 * Pairs two harnesses draw by draw (same task, same sample index, so the same request seed):
 * a fix that holds on every re-sample counts once per distinct draw, a flip that comes and goes
 * cancels out. A pair that repeats an earlier pair of its task word for word is one observation
 * seen twice — a deterministic model's re-draw — and counts once, so re-drawing a deterministic
 * model never lowers the p-value below the per-task test's. The test is against sampling noise;
 * generalisation is the held-out gate's job (docs/acceptance-statistics.md).
 */
export function compareSamples(
  parent: SampleOutcomes,
  candidate: SampleOutcomes,
): SampleComparison {
  let pairs = 0;
  let repeats = 0;
  let fixed = 0;
  let broken = 0;
  for (const [taskId, draws] of parent) {
    const other = candidate.get(taskId);
    if (!other) continue;
    const seen = new Set<string>();
    for (const [sample, before] of [...draws].sort(([a], [b]) => a - b)) {
      const after = other.get(sample);
      if (after === undefined) continue;
      pairs += 1;
      const pair = JSON.stringify([before.said, after.said]);
      if (seen.has(pair)) {
        repeats += 1;
        continue;
      }
      seen.add(pair);
      if (!before.pass && after.pass) fixed += 1;
      if (before.pass && !after.pass) broken += 1;
    }
  }
  return { pairs, repeats, fixed, broken, pValue: mcnemarOneSided(fixed, broken) };
}
