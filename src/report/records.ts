import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { RefinementRecord } from "../refine/refinement-record.js";

/** Why a pattern was classified so, in one line (`singleton: 1 task; …`). */
export function patternReasons(pattern: Pick<FailurePattern, "reasons">): string {
  return pattern.reasons.map((reason) => `${reason.code}: ${reason.detail}`).join("; ");
}

/** Each role's turn of a refinement with what it said (or why it said nothing usable). */
export function roleTurns(
  refinement: RefinementRecord,
): { role: string; round: number; output: unknown }[] {
  return refinement.turns.map((turn) => ({
    role: turn.role,
    round: turn.round,
    output: turn.output ?? { error: turn.error ?? "no usable reply" },
  }));
}
