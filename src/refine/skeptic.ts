import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { ChatProvider } from "../llm/types.js";
import type { HarnessView } from "./harness-view.js";
import { skepticTemplate } from "./prompts/skeptic.js";
import type { RoleTurn } from "./refinement-record.js";
import { callRole } from "./role-call.js";
import { patternHeadline } from "./role-evidence.js";
import {
  type Critique,
  critiqueSchema,
  type Diagnosis,
  type Hms,
  roleJsonSchemas,
} from "./role-schemas.js";

/** Skeptic: accepts the HMS, sends it back with objections, or rejects it. */
export async function runSkeptic(options: {
  hms: Hms;
  diagnoses: Diagnosis[];
  patterns: FailurePattern[];
  /** The harness the HMS would change (so an inexpressible change can be objected to). */
  harness: HarnessView;
  round: number;
  refiner: ChatProvider;
  turns: RoleTurn[];
}): Promise<Critique> {
  const critique = await callRole({
    refiner: options.refiner,
    role: "skeptic",
    schemaName: "critique",
    template: skepticTemplate,
    evidence: {
      hms: options.hms,
      diagnoses: options.diagnoses,
      patterns: options.patterns.map((pattern) => patternHeadline(pattern)),
      harness: options.harness,
    },
    jsonSchema: roleJsonSchemas.critique,
    schema: critiqueSchema,
    round: options.round,
    summary: `round ${options.round}: ${options.hms.changes.length} change(s) over ${options.patterns.length} pattern(s)`,
    turns: options.turns,
  });
  // A "revise" without objections gives the Architect nothing to answer: treat it as accept.
  if (critique.verdict === "revise" && critique.objections.length === 0)
    return { ...critique, verdict: "accept" };
  return critique;
}
