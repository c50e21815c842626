import { z } from "zod";
import { canonicalJson } from "../config/canonical-json.js";
import type { FailurePattern } from "../diagnose/failure-pattern.js";
import { type PlannedEdit, plannedEditSchema } from "../harness/types.js";
import { type Hms, hmsSchema, type RejectedProposal } from "../refine/role-schemas.js";

/**
 * A proposal the loop rejected, remembered for the rest of the run: what the refiner roles are
 * shown of it (`RejectedProposal`), plus what the loop itself needs — the guarded edits (a later
 * identical proposal is dropped unvalidated), the harness they were tried on, and whether the
 * roles had proposed nothing at all.
 */
export const rememberedProposalSchema = z.object({
  /** One line: the HMS's changes, or the edits' rationales. */
  summary: z.string(),
  hms: hmsSchema,
  reason: z.string(),
  /** The patterns it addressed, by id and by name (ids change across batches); iterative: task ids. */
  patternIds: z.array(z.string()),
  /** A change pruned by per-change attribution: an attempt at its patterns, not a rejection. */
  pruned: z.boolean().optional(),
  edits: z.array(plannedEditSchema).optional(),
  /** The harness the edits were tried on. */
  parentHash: z.string().optional(),
  /**
   * The roles proposed no change at all: its patterns are not attempted again on `parentHash`
   * with the same evidence — until a round of fresh samples (`sampleRound`) gives them new traces.
   */
  nothingProposed: z.boolean().optional(),
  /** The round of fresh samples its evidence came from (ecdysis.ts; absent: round 0). */
  sampleRound: z.number().int().min(0).optional(),
});
/** A proposal the loop rejected, remembered for the rest of the run. */
export type RememberedProposal = z.infer<typeof rememberedProposalSchema>;

/**
 * The HMS the roles are shown for a remembered proposal: the proposal's own when it has one,
 * else one change summarising it (a pruned or ablated change, a refinement that produced none).
 */
export function rememberedHms(hms: unknown, summary: string, patternIds: string[]): Hms {
  const parsed = hmsSchema.safeParse(hms);
  if (parsed.success) return parsed.data;
  return {
    changes: [
      {
        module: "unknown",
        change: summary,
        patterns: patternIds,
        expectedEffect: "",
        regressionRisks: "",
      },
    ],
  };
}

/** One line for a set of edits: `module: rationale; …`. */
export function editsSummary(edits: PlannedEdit[]): string {
  return edits.map((edit) => `${edit.module}: ${edit.rationale}`).join("; ");
}

/**
 * What the refiner roles see of the memory when refining `harnessHash`: every remembered
 * proposal, marked when it was tried on an earlier harness (the failure that sank it may be
 * fixed since).
 */
export function shownToRoles(
  memory: readonly RememberedProposal[],
  harnessHash?: string,
): RejectedProposal[] {
  return memory.map((proposal) => {
    const earlier = harnessHash !== undefined && proposal.parentHash !== harnessHash;
    return {
      hms: proposal.hms,
      reason: proposal.reason,
      patternIds: proposal.patternIds,
      ...(proposal.pruned ? { pruned: true } : {}),
      ...(earlier ? { earlierHarness: true } : {}),
    };
  });
}

/** Remembered proposals that addressed a pattern (matched by id or name: ids change across batches). */
function rememberedFor(
  pattern: FailurePattern,
  memory: readonly RememberedProposal[],
): RememberedProposal[] {
  return memory.filter(
    (proposal) =>
      proposal.patternIds.includes(pattern.id) || proposal.patternIds.includes(pattern.name),
  );
}

/** Where a pattern is asked about: the harness in force and the round of samples it was observed in. */
export interface AttemptScope {
  maxAttempts: number;
  harnessHash: string;
  /** The round of fresh samples the evidence comes from (absent: round 0). */
  sampleRound?: number;
}

/**
 * Whether the roles already found nothing to propose for this pattern on this harness, from
 * evidence of the same round of samples (asked again with it, they would give the same answer).
 */
function nothingToPropose(mine: readonly RememberedProposal[], scope: AttemptScope): boolean {
  return mine.some(
    (proposal) =>
      proposal.nothingProposed &&
      proposal.parentHash === scope.harnessHash &&
      (proposal.sampleRound ?? 0) === (scope.sampleRound ?? 0),
  );
}

/**
 * Whether a pattern may still be attempted on this harness: fewer than `maxAttempts` of its
 * proposals were rejected, and the roles did not already find nothing to propose for it here on
 * the same evidence (a round of fresh samples gives them new traces to read).
 */
export function mayAttempt(
  pattern: FailurePattern,
  memory: readonly RememberedProposal[],
  scope: AttemptScope,
): boolean {
  const mine = rememberedFor(pattern, memory);
  return mine.length < scope.maxAttempts && !nothingToPropose(mine, scope);
}

/**
 * Why systematic patterns that are still there are not attempted again (`undefined` when there
 * are none): per pattern, its attempts used up or the roles' empty answer on this harness. A run
 * that stops here has systematic patterns left; it must not say that none is.
 */
export function exhaustedReason(
  systematic: FailurePattern[],
  memory: readonly RememberedProposal[],
  options: AttemptScope,
): string | undefined {
  if (systematic.length === 0) return undefined;
  const each = systematic.map((pattern) => {
    const mine = rememberedFor(pattern, memory);
    const why = nothingToPropose(mine, options)
      ? "the roles proposed no change for it on this harness"
      : `${Math.min(mine.length, options.maxAttempts)} of ${options.maxAttempts} attempts used`;
    return `${pattern.name} (${why})`;
  });
  const count = systematic.length;
  return `${count} systematic pattern${count === 1 ? "" : "s"} left, none attemptable: ${each.join("; ")}`;
}

/** A canonical key of a set of edits: what they change, not why or for which pattern. */
function editsKey(edits: PlannedEdit[]): string {
  return edits
    .map((edit) => canonicalJson(edit.edit))
    .sort()
    .join("\n");
}

/**
 * The remembered proposal whose edits are exactly these edits, tried on this same harness. On
 * another parent the failure that sank (or masked) it may be gone, so it may be tried again.
 */
export function identicalRejected(
  edits: PlannedEdit[],
  memory: readonly RememberedProposal[],
  parentHash: string,
): RememberedProposal | undefined {
  if (edits.length === 0) return undefined;
  const key = editsKey(edits);
  return memory.find(
    (proposal) =>
      proposal.edits && proposal.parentHash === parentHash && editsKey(proposal.edits) === key,
  );
}
