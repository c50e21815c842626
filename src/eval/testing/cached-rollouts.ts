import { RolloutCache } from "../rollout-cache.js";

/** How many valid records a rollout cache folder holds, as a process opening it now sees them. */
export async function countCachedRollouts(dir: string): Promise<number> {
  let count = 0;
  for await (const _record of new RolloutCache(dir).records()) count += 1;
  return count;
}
