import { EcdysisError } from "../errors/ecdysis-error.js";
import { type ReplyKind, type UnusableKind, unusableReplies } from "./reply-kind.js";

/**
 * A model's structured output stayed unusable (no JSON, or JSON that fails the schema) after
 * the bounded repairs. Carries an excerpt of the last raw reply, the validation issues, and the
 * kind of every reply (empty, reasoning only, refused, cut, not JSON, off the schema), whose
 * most frequent one names the fix.
 */
export class StructuredOutputError extends EcdysisError {
  readonly code = "structured-output";
  constructor(
    readonly schemaName: string,
    readonly attempts: number,
    readonly issues: string[],
    readonly rawExcerpt: string,
    readonly replies: ReplyKind[] = [],
  ) {
    super(
      `structured output '${schemaName}' was still invalid after ${attempts} attempt(s): ${issues.slice(0, 3).join("; ") || "no usable reply"}` +
        ` — last reply began: ${JSON.stringify(rawExcerpt.slice(0, 200))}; ${remedyOf(replies)}`,
    );
    this.name = "StructuredOutputError";
  }
}

/** The fix for the most frequent unusable kind among the replies. */
function remedyOf(replies: ReplyKind[]): string {
  const counts = new Map<UnusableKind, number>();
  for (const kind of replies) if (kind !== "usable") counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  return top
    ? unusableReplies[top].remedy
    : "a more capable model, or a server that honours response_format, usually fixes this";
}
