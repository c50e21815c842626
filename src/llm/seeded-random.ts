/** A source of uniform numbers in [0, 1), injected wherever the LLM layer needs randomness. */
export type RandomSource = () => number;

/**
 * A small deterministic PRNG (mulberry32) so retry jitter is reproducible for a given seed.
 * Not for cryptography.
 */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
