import { createRng, deriveSeed, type Rng } from "../evolve/rng.js";
import type { Estimate } from "./types.js";

/** One per-pair value of a figure, with the stratum (the world) it is resampled within. */
export interface StratifiedValue {
  stratum: string;
  value: number;
}

/** Median of a list (mean of the two middle values for even lengths); null for an empty list. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The median of per-pair values with a percentile bootstrap 95% interval. Pairs are resampled
 * with replacement within their stratum (each world keeps its number of seeds), so an
 * all-worlds interval does not let one world crowd out another. Randomness is injected: the
 * same values, resamples and rng give the same interval. Null when there is no value.
 */
export function bootstrapMedian(options: {
  values: readonly StratifiedValue[];
  resamples: number;
  rng: Rng;
}): Estimate | null {
  const { values, resamples, rng } = options;
  const point = median(values.map((entry) => entry.value));
  if (point === null) return null;
  const strata = new Map<string, number[]>();
  for (const entry of values)
    strata.set(entry.stratum, [...(strata.get(entry.stratum) ?? []), entry.value]);
  const groups = [...strata.values()];
  const statistics: number[] = [];
  for (let round = 0; round < resamples; round++) {
    const drawn: number[] = [];
    for (const group of groups) {
      for (let index = 0; index < group.length; index++)
        drawn.push(group[Math.floor(rng.next() * group.length)]);
    }
    statistics.push(median(drawn) as number);
  }
  statistics.sort((a, b) => a - b);
  const at = (share: number) =>
    statistics.length === 0
      ? point
      : statistics[Math.min(statistics.length - 1, Math.floor(share * statistics.length))];
  return { median: point, low: at(0.025), high: at(0.975), n: values.length };
}

/**
 * The bootstrap stream of one figure of one comparison: seeded from the bench's bootstrap seed
 * and the figure's name, so each interval is reproducible whatever else the bench computed.
 */
export function bootstrapRng(seed: number, key: string): Rng {
  let hash = 0x811c9dc5;
  for (const char of key) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return createRng(deriveSeed(seed, hash | 0));
}
