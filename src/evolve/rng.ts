/** A seeded pseudo-random source: `next()` returns a float in [0, 1). */
export interface Rng {
  next(): number;
}

/** mulberry32: small, fast and reproducible across platforms; seeds are mixed so nearby seeds differ. */
export function createRng(seed: number): Rng {
  let state = (Math.imul(seed | 0, 0x9e3779b1) ^ 0x85ebca6b) >>> 0;
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** Derives the seed of a sub-stream (e.g. one iteration) so resumed runs draw the same numbers without stored state. */
export function deriveSeed(seed: number, ...parts: number[]): number {
  let value = seed | 0;
  for (const part of parts) value = (Math.imul(value ^ (part | 0), 0x01000193) + 0x7f4a7c15) | 0;
  return value;
}

/** Fisher–Yates shuffle of a copy. */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(rng.next() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}
