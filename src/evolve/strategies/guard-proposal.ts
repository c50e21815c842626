import type { GuardRejection, LoadedHarness, PlannedEdit } from "../../harness/types.js";
import type { RefinementView } from "../stage-views.js";
import type { StrategyContext } from "../types.js";

/** A refinement after the guards: the candidate harness, or why there is none. */
export interface GuardedProposal {
  candidate?: LoadedHarness;
  applied: PlannedEdit[];
  guardRejections: GuardRejection[];
  /** Set when there is no candidate. */
  reason?: string;
}

/** Applies a refinement's planned edits through the guards (pure; replays identically on resume). */
export function guardProposal(
  context: StrategyContext,
  harness: LoadedHarness,
  refinement: RefinementView,
): GuardedProposal {
  if (refinement.verdict === "rejected") {
    return {
      applied: [],
      guardRejections: [],
      reason: `refinement rejected: ${refinement.reason ?? "the Skeptic rejected the specification"}`,
    };
  }
  if (refinement.edits.length === 0)
    return { applied: [], guardRejections: [], reason: "the Editor planned no edits" };
  const guarded = context.deps.applyEdits({
    harness,
    edits: refinement.edits,
    guard: context.guard,
  });
  const base = { applied: guarded.applied, guardRejections: guarded.rejected };
  if (guarded.applied.length === 0)
    return { ...base, reason: `every edit was refused by the guards (${guarded.rejected.length})` };
  if (guarded.harness.hash === harness.hash)
    return { ...base, reason: "the edits leave the harness unchanged" };
  return { ...base, candidate: guarded.harness };
}
