import { z } from "zod";
import {
  type ReplyKind,
  replyKinds,
  type UnusableKind,
  unusableReplies,
} from "../llm/reply-kind.js";

/** Replies per role (or purpose) and kind: `{ "failure-notes": { usable: 3, refusal: 2 } }`. */
export const replyTallySchema = z.record(
  z.string(),
  z.partialRecord(z.enum(replyKinds), z.number().int()),
);
/** Replies per role and kind. */
export type ReplyCounts = z.infer<typeof replyTallySchema>;

/**
 * Counts the refiner's replies by role and kind (usable, empty, reasoning only, refused, cut,
 * not JSON, off the schema): where the refiner calls are made, so that a run whose refiner never
 * formed a usable reply can say so, with the counts and the fix (`silentRefinerReason`).
 */
export class ReplyTally {
  private readonly tally: ReplyCounts = {};

  /** Adds the kinds of one call's replies under `role`. */
  add(role: string, kinds: readonly ReplyKind[]): void {
    const counts = this.tally[role] ?? {};
    for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1;
    this.tally[role] = counts;
  }

  /** Adds another tally (counts per role and kind). */
  merge(other: ReplyCounts | undefined): void {
    for (const [role, counts] of Object.entries(other ?? {}))
      for (const [kind, count] of Object.entries(counts))
        this.add(role, Array(count ?? 0).fill(kind as ReplyKind));
  }

  isEmpty(): boolean {
    return Object.keys(this.tally).length === 0;
  }

  /** A copy of the counts. */
  counts(): ReplyCounts {
    return structuredClone(this.tally);
  }
}

/**
 * Why a refiner that answered nothing usable is no use, in one sentence with the counts per role
 * and kind and the fix for the most frequent kind — or undefined when some reply was usable (or
 * no call was made).
 */
export function silentRefinerReason(counts: ReplyCounts): string | undefined {
  const roles = Object.entries(counts).filter(([, kinds]) =>
    Object.values(kinds).some((count) => (count ?? 0) > 0),
  );
  if (roles.length === 0) return undefined;
  if (roles.some(([, kinds]) => (kinds.usable ?? 0) > 0)) return undefined;
  const totals = new Map<UnusableKind, number>();
  const perRole = roles.map(([role, kinds]) => {
    const parts = (Object.entries(kinds) as [UnusableKind, number][])
      .filter(([, count]) => count > 0)
      .map(([kind, count]) => {
        totals.set(kind, (totals.get(kind) ?? 0) + count);
        return `${count} ${unusableReplies[kind].words}`;
      });
    return `${role} ${parts.join(", ")}`;
  });
  const top = [...totals.entries()].sort((a, b) => b[1] - a[1])[0][0];
  return `the refiner model gave no usable reply (${perRole.join("; ")}); ${unusableReplies[top].remedy}`;
}
