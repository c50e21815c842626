import { createHash } from "node:crypto";

/** A uniform number in [0, 1) decided by hashing the parts: the sim's only source of chance. */
export function draw(...parts: (string | number)[]): number {
  const digest = createHash("sha256").update(parts.join("\u241f")).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** Short hex hash of the parts (ids, ground-truth keys). */
export function shortHash(...parts: (string | number)[]): string {
  return createHash("sha256").update(parts.join("\u241f")).digest("hex").slice(0, 16);
}

/** A seeded generator (mulberry32) for task generation. */
export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** Creates a seeded RNG whose stream is fixed by the parts. */
export function seededRng(...parts: (string | number)[]): Rng {
  let state = Math.floor(draw(...parts) * 2 ** 32) >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}
