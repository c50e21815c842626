import { type PlannedEdit, plannedEditSchema } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import type { HarnessSummary } from "./harness-summary.js";
import { editorTemplate } from "./prompts/editor.js";
import type { RoleTurn } from "./refinement-record.js";
import { callRole, settleRoleCalls } from "./role-call.js";
import { editsReplySchema, type Hms, roleJsonSchemas } from "./role-schemas.js";

type EditorResult = { edits: PlannedEdit[]; invalid: { edit: unknown; issues: string }[] };

/**
 * Editor: turns the accepted HMS into PlannedEdit[], one call per HMS change, all at once (the
 * Architect already settled how the changes fit together; a reply for one change is shorter, so
 * sooner). Edits come back in the HMS's order and are applied in it, so two edits of one passage
 * meet the guards in a fixed order. A change whose reply is unusable contributes no edits; only
 * when every reply is unusable does the role fail. Each edit is validated on its own, so one
 * malformed edit does not cost the others; the invalid ones are returned with their issues.
 */
export async function runEditor(options: {
  hms: Hms;
  harness: HarnessSummary;
  refiner: ChatProvider;
  turns: RoleTurn[];
}): Promise<EditorResult> {
  const replies = await settleRoleCalls(
    options.hms.changes.map((change) =>
      callRole({
        refiner: options.refiner,
        role: "editor",
        schemaName: "edits",
        template: editorTemplate,
        evidence: { hms: { changes: [change] }, harness: options.harness },
        jsonSchema: roleJsonSchemas.edits,
        schema: editsReplySchema,
        round: 0,
        summary: `${change.module}: ${change.change.slice(0, 120)} (${options.harness.files?.length ?? 0} harness file(s))`,
        turns: options.turns,
      }),
    ),
  );
  const result: EditorResult = { edits: [], invalid: [] };
  for (const candidate of replies.flatMap((reply) => reply.edits)) {
    const parsed = plannedEditSchema.safeParse(candidate);
    if (parsed.success) result.edits.push(parsed.data);
    else
      result.invalid.push({
        edit: candidate,
        issues: parsed.error.issues
          .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
          .join("; "),
      });
  }
  return result;
}
