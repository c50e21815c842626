import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { ChatProvider } from "../llm/types.js";
import type { HarnessView } from "./harness-view.js";
import { diagnosticianTemplate } from "./prompts/diagnostician.js";
import type { RoleTurn } from "./refinement-record.js";
import { callRole, settleRoleCalls } from "./role-call.js";
import { patternForRoles, rejectedForRoles } from "./role-evidence.js";
import {
  type Diagnosis,
  diagnosisReplySchema,
  type RejectedProposal,
  roleJsonSchemas,
} from "./role-schemas.js";

/**
 * Diagnostician: root cause and module per pattern, from up to five examples each, the harness
 * view (`harnessView`, analysis role) and the rejected proposals. One call per pattern, all at once: the diagnoses are
 * independent, and a reply about one pattern is shorter (so sooner) than one about all of them.
 * A pattern whose reply is unusable goes undiagnosed; only when every reply is unusable does the
 * role fail. Diagnoses of other pattern ids than the one asked about are dropped; several of the
 * one asked about are kept (failures of different causes in one pattern — a minibatch of the
 * iterative reflector, an impure pattern — each get their own root cause and change).
 */
export async function runDiagnostician(options: {
  patterns: FailurePattern[];
  harness: HarnessView;
  rejected: RejectedProposal[];
  refiner: ChatProvider;
  turns: RoleTurn[];
}): Promise<Diagnosis[]> {
  const harness = options.harness;
  const rejected = rejectedForRoles(options.rejected);
  const diagnoses = await settleRoleCalls(
    options.patterns.map(async (pattern) => {
      const reply = await callRole({
        refiner: options.refiner,
        role: "diagnostician",
        schemaName: "diagnosis",
        template: diagnosticianTemplate,
        evidence: {
          patterns: [patternForRoles(pattern, options.rejected)],
          harness,
          rejected,
        },
        jsonSchema: roleJsonSchemas.diagnosis,
        schema: diagnosisReplySchema,
        round: 0,
        summary: `${pattern.name}: ${pattern.support.tasks} tasks, ${options.rejected.length} rejected proposal(s)`,
        turns: options.turns,
      });
      const mine = reply.diagnoses.filter((diagnosis) => diagnosis.patternId === pattern.id);
      return mine.length > 0 ? mine : undefined;
    }),
  );
  return diagnoses.filter((diagnosis) => diagnosis !== undefined).flat();
}
