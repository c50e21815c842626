import type { PlannedEdit } from "../../harness/types.js";
import type { PatternView, RejectedProposalView } from "../stage-views.js";

/** Rejected proposals that addressed a pattern (matched by id or name: ids change across batches). */
export function rejectedFor(
  pattern: PatternView,
  rejected: RejectedProposalView[],
): RejectedProposalView[] {
  return rejected.filter(
    (proposal) =>
      proposal.patterns.includes(pattern.id) || proposal.patterns.includes(pattern.name),
  );
}

/**
 * Whether a pattern may still be attempted on this harness: fewer than `maxAttempts` of its
 * proposals were rejected, and the roles did not already find nothing to propose for it here
 * (asked again with the same harness, they have no new evidence to change their answer).
 */
export function mayAttempt(
  pattern: PatternView,
  rejected: RejectedProposalView[],
  options: { maxAttempts: number; harnessHash: string },
): boolean {
  const mine = rejectedFor(pattern, rejected);
  return (
    mine.length < options.maxAttempts &&
    !mine.some(
      (proposal) => proposal.nothingProposed && proposal.parentHash === options.harnessHash,
    )
  );
}

/**
 * Why systematic patterns that are still there are not attempted again (`undefined` when there
 * are none): per pattern, its attempts used up or the roles' empty answer on this harness. A run
 * that stops here has systematic patterns left; it must not say that none is.
 */
export function exhaustedReason(
  systematic: PatternView[],
  rejected: RejectedProposalView[],
  options: { maxAttempts: number; harnessHash: string },
): string | undefined {
  if (systematic.length === 0) return undefined;
  const each = systematic.map((pattern) => {
    const mine = rejectedFor(pattern, rejected);
    const why = mine.some(
      (proposal) => proposal.nothingProposed && proposal.parentHash === options.harnessHash,
    )
      ? "the roles proposed no change for it on this harness"
      : `${Math.min(mine.length, options.maxAttempts)} of ${options.maxAttempts} attempts used`;
    return `${pattern.name} (${why})`;
  });
  const count = systematic.length;
  return `${count} systematic pattern${count === 1 ? "" : "s"} left, none attemptable: ${each.join("; ")}`;
}

/** A canonical key of a set of edits: what they change, not why or for which pattern. */
export function editsKey(edits: PlannedEdit[]): string {
  return edits
    .map((edit) => JSON.stringify(sortKeys(edit.edit)))
    .sort()
    .join("\n");
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, item]) => [key, sortKeys(item)]),
    );
  return value;
}

/**
 * The rejected proposal whose edits are exactly these edits, tried on this same harness. On
 * another parent the failure that sank (or masked) it may be gone, so it may be tried again.
 */
export function identicalRejected(
  edits: PlannedEdit[],
  rejected: RejectedProposalView[],
  parentHash: string,
): RejectedProposalView | undefined {
  if (edits.length === 0) return undefined;
  const key = editsKey(edits);
  return rejected.find(
    (proposal) =>
      proposal.edits && proposal.parentHash === parentHash && editsKey(proposal.edits) === key,
  );
}
