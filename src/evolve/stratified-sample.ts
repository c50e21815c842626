import { type Rng, shuffled } from "./rng.js";

/**
 * Draws `size` items spread over categories in proportion to their share (largest remainder),
 * each category shuffled with the seeded RNG. Returns everything (in input order) when the
 * population is not larger than `size`.
 */
export function stratifiedSample<T>(options: {
  items: readonly T[];
  size: number;
  category: (item: T) => string;
  rng: Rng;
}): T[] {
  const { items, size, category, rng } = options;
  if (size <= 0) return [];
  if (items.length <= size) return [...items];
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = category(item);
    const group = groups.get(key) ?? [];
    group.push(item);
    groups.set(key, group);
  }
  const keys = [...groups.keys()].sort();
  const quotas = keys.map((key) => {
    const exact = ((groups.get(key)?.length ?? 0) * size) / items.length;
    return { key, quota: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let missing = size - quotas.reduce((sum, entry) => sum + entry.quota, 0);
  // Ties in the remainder are broken by a seeded shuffle, not by name order, so no category is favoured.
  for (const entry of shuffled(quotas, rng).sort((a, b) => b.remainder - a.remainder)) {
    if (missing <= 0) break;
    entry.quota += 1;
    missing -= 1;
  }
  const chosen = new Set<T>();
  for (const entry of quotas) {
    for (const item of shuffled(groups.get(entry.key) ?? [], rng).slice(0, entry.quota))
      chosen.add(item);
  }
  return items.filter((item) => chosen.has(item));
}
