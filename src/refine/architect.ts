import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { ChatProvider } from "../llm/types.js";
import type { HarnessView } from "./harness-view.js";
import { architectTemplate } from "./prompts/architect.js";
import type { RoleTurn } from "./refinement-record.js";
import { callRole } from "./role-call.js";
import { patternHeadline, rejectedForRoles } from "./role-evidence.js";
import {
  type Critique,
  type Diagnosis,
  type Hms,
  hmsSchema,
  type RejectedProposal,
  roleJsonSchemas,
} from "./role-schemas.js";

/**
 * Architect: writes the HMS from the diagnoses, or revises the previous one answering the
 * Skeptic's objections. Changes with an empty description are dropped.
 */
export async function runArchitect(options: {
  diagnoses: Diagnosis[];
  patterns: FailurePattern[];
  harness: HarnessView;
  rejected: RejectedProposal[];
  previous?: Hms;
  objections: Critique["objections"];
  round: number;
  refiner: ChatProvider;
  turns: RoleTurn[];
}): Promise<Hms> {
  const revising = options.previous !== undefined;
  const hms = await callRole({
    refiner: options.refiner,
    role: "architect",
    schemaName: "hms",
    template: architectTemplate,
    evidence: {
      diagnoses: options.diagnoses,
      objections: options.objections,
      ...(revising ? { previous: options.previous } : {}),
      patterns: options.patterns.map((pattern) => patternHeadline(pattern, options.rejected)),
      harness: options.harness,
      rejected: rejectedForRoles(options.rejected),
    },
    jsonSchema: roleJsonSchemas.hms,
    schema: hmsSchema,
    round: options.round,
    summary: revising
      ? `revision ${options.round}: ${options.objections.length} objection(s) on ${options.previous?.changes.length ?? 0} change(s)`
      : `${options.diagnoses.length} diagnosis(es), ${options.rejected.length} rejected proposal(s)`,
    turns: options.turns,
  });
  return { changes: hms.changes.filter((change) => change.change.trim() !== "") };
}
