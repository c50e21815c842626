import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { ChatProvider } from "../llm/types.js";
import type { HarnessSummary } from "./harness-summary.js";
import { diagnosticianTemplate } from "./prompts/diagnostician.js";
import type { RoleTurn } from "./refinement-record.js";
import { callRole } from "./role-call.js";
import { patternForRoles, rejectedForRoles } from "./role-evidence.js";
import {
  type Diagnosis,
  diagnosisReplySchema,
  type RejectedProposal,
  roleJsonSchemas,
} from "./role-schemas.js";

/**
 * Diagnostician: root cause and module per pattern, from up to five examples each, the harness
 * summary and the rejected proposals. Diagnoses of unknown pattern ids are dropped.
 */
export async function runDiagnostician(options: {
  patterns: FailurePattern[];
  harness: HarnessSummary;
  rejected: RejectedProposal[];
  refiner: ChatProvider;
  turns: RoleTurn[];
}): Promise<Diagnosis[]> {
  const reply = await callRole({
    refiner: options.refiner,
    role: "diagnostician",
    schemaName: "diagnosis",
    template: diagnosticianTemplate,
    evidence: {
      patterns: options.patterns.map((pattern) => patternForRoles(pattern, options.rejected)),
      harness: { config: options.harness.config, rules: options.harness.rules },
      rejected: rejectedForRoles(options.rejected),
    },
    jsonSchema: roleJsonSchemas.diagnosis,
    schema: diagnosisReplySchema,
    round: 0,
    summary: `${options.patterns.length} pattern(s) (${options.patterns.map((pattern) => `${pattern.name}: ${pattern.support.tasks} tasks`).join(", ")}), ${options.rejected.length} rejected proposal(s)`,
    turns: options.turns,
  });
  const ids = new Set(options.patterns.map((pattern) => pattern.id));
  const seen = new Set<string>();
  return reply.diagnoses.filter((diagnosis) => {
    if (!ids.has(diagnosis.patternId) || seen.has(diagnosis.patternId)) return false;
    seen.add(diagnosis.patternId);
    return true;
  });
}
