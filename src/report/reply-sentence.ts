import type { EvolveResult } from "../evolve/result-schema.js";
import { type UnusableKind, unusableReplies } from "../llm/reply-kind.js";

/**
 * The refiner replies of a run that could not be used, per role and kind — `4 of 31 refiner
 * replies were not usable (failure-notes 3 refused; editor 1 cut at the token limit)` — or
 * undefined when every reply was usable (or none was recorded). A fallback that hides a model's
 * refusals (a note left empty, a merge done without the model) is then still said.
 */
export function unusableReplySentence(
  result: Pick<EvolveResult, "iterations">,
): string | undefined {
  const byRole = new Map<string, Map<UnusableKind, number>>();
  let total = 0;
  let unusable = 0;
  const add = (role: string, kind: string, count: number) => {
    total += count;
    if (kind === "usable") return;
    unusable += count;
    const kinds = byRole.get(role) ?? new Map<UnusableKind, number>();
    kinds.set(kind as UnusableKind, (kinds.get(kind as UnusableKind) ?? 0) + count);
    byRole.set(role, kinds);
  };
  for (const iteration of result.iterations) {
    for (const [role, kinds] of Object.entries(iteration.diagnosis?.stats?.replies ?? {}))
      for (const [kind, count] of Object.entries(kinds)) add(role, kind, count ?? 0);
    for (const turn of iteration.refinement?.turns ?? [])
      for (const kind of turn.replies ?? []) add(turn.role, kind, 1);
  }
  if (unusable === 0) return undefined;
  const parts = [...byRole].map(
    ([role, kinds]) =>
      `${role} ${[...kinds].map(([kind, count]) => `${count} ${unusableReplies[kind].words}`).join(", ")}`,
  );
  return `${unusable} of ${total} refiner replies were not usable (${parts.join("; ")})`;
}
