import { z } from "zod";
import { plannedEditSchema } from "../harness/types.js";
import { replyKinds } from "../llm/reply-kind.js";
import { critiqueSchema, diagnosisSchema, hmsSchema } from "./role-schemas.js";

/** One role call: who, which schema, a summary of what it was shown, and what it said. */
export const roleTurnSchema = z.object({
  role: z.enum(["diagnostician", "architect", "skeptic", "editor", "reflector"]),
  schemaName: z.string(),
  round: z.number().int(),
  /** Human-readable summary of the evidence the role was shown. */
  input: z.string(),
  evidenceChars: z.number().int(),
  /** The validated output, or null when the reply stayed unusable. */
  output: z.unknown(),
  error: z.string().optional(),
  /**
   * The `requestDigest` of each call the turn made (repairs included), in order: where the run
   * keeps prompts (prompts.jsonl), the report shows each call's prompt and reply under these ids.
   */
  callIds: z.array(z.string()).optional(),
  /** The kind of each reply the turn got (usable, or empty, refused, cut, not JSON…), in order. */
  replies: z.array(z.enum(replyKinds)).optional(),
});
export type RoleTurn = z.infer<typeof roleTurnSchema>;

/** One Architect/Skeptic round. */
export const debateRoundSchema = z.object({
  round: z.number().int(),
  hms: hmsSchema,
  critique: critiqueSchema.nullable(),
});
export type DebateRound = z.infer<typeof debateRoundSchema>;

/**
 * An edit of the Editor that did not make it into the proposal, and why: `dropped` — the reply
 * for its HMS change stayed unusable (no edit to show); `invalid` — it failed the edit schema or
 * did not apply to the harness as shown, even after the repairs; `refused` — it would have
 * undone or clashed with an earlier edit of the same proposal. `change` is the 0-based index of
 * its HMS change.
 */
export const droppedEditSchema = z.object({
  change: z.number().int().nullable(),
  stage: z.enum(["dropped", "invalid", "refused"]),
  reason: z.string(),
  edit: z.unknown(),
});
export type DroppedEdit = z.infer<typeof droppedEditSchema>;

/**
 * Everything a refinement produced: the roles' inputs and outputs, the debate rounds, the final
 * HMS or the rejection, and the planned edits — not yet guarded; the caller applies them through
 * the harness guards.
 */
export const refinementRecordSchema = z.object({
  mode: z.enum(["refine", "reflect"]),
  patternIds: z.array(z.string()),
  turns: z.array(roleTurnSchema),
  diagnoses: z.array(diagnosisSchema),
  rounds: z.array(debateRoundSchema),
  /** accepted: edits planned; rejected: the Skeptic said no or rounds ran out; failed: a role's reply stayed unusable. */
  outcome: z.enum(["accepted", "rejected", "no-patterns", "no-changes", "failed"]),
  hms: hmsSchema.nullable(),
  rejection: z
    .object({
      reason: z.string(),
      objections: z.array(z.object({ change: z.string(), reason: z.string() })),
    })
    .nullable(),
  edits: z.array(plannedEditSchema),
  /** Editor output that failed the edit schema, with why. */
  invalidEdits: z.array(z.object({ edit: z.unknown(), issues: z.string() })),
  /** Every Editor edit that was left out, with why (invalid ones included). */
  droppedEdits: z.array(droppedEditSchema).default([]),
});
export type RefinementRecord = z.infer<typeof refinementRecordSchema>;

/** An HMS in one line: `module: change; module: change`. */
export function summariseHms(hms: { changes: { module: string; change: string }[] }): string {
  return hms.changes.map((change) => `${change.module}: ${change.change}`).join("; ");
}

/** What a refinement came to, in one line: its HMS, or why there is none. */
export function refinementSummary(record: RefinementRecord): string {
  return record.hms ? summariseHms(record.hms) : (record.rejection?.reason ?? record.outcome);
}
