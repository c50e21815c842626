import type { ValidationStage } from "../validation.js";

// What a rejected candidate left behind for the repair round (ecdysis.ts, repair.ts): the tasks it
// broke and the failing targets it exposed.

/**
 * What a rejected candidate exposed, for the repair round: the failing targets that fail
 * differently under the candidate as it was last run on the cheap subset (its pruned form, or
 * the bundle when pruning was put back) — the failure that now masks its fix.
 */
export function exposed(stages: readonly ValidationStage[]): string[] {
  const cheap = stages.findLast(
    (stage) => (stage.role === "screen" || stage.role === "prune") && stage.comparison,
  );
  return cheap?.comparison?.shifted ?? [];
}

/**
 * What a rejected candidate broke, for the repair round: the first full batch's broken tasks,
 * else those of its last cheap run (a proposal pruned to nothing broke nothing that counts).
 */
export function regressions(stages: readonly ValidationStage[]): string[] {
  const full = stages.find((stage) => stage.role === "verdict" && stage.comparison);
  return (full ?? stages.at(-1))?.comparison?.broken ?? [];
}

/**
 * The candidate a rejection judged, for the repair round to build on: the first full batch's (after
 * pruning, without the changes that fixed none of their targets), else that of the last cheap run.
 */
export function judgedCandidate(stages: readonly ValidationStage[]): string | undefined {
  const full = stages.find((stage) => stage.role === "verdict" && stage.comparison);
  const cheap = stages.findLast(
    (stage) => (stage.role === "screen" || stage.role === "prune") && stage.comparison,
  );
  return (full ?? cheap)?.candidateHash;
}
