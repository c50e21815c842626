import { type PlannedEdit, plannedEditSchema } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import type { HarnessSummary } from "./harness-summary.js";
import { editorTemplate } from "./prompts/editor.js";
import type { RoleTurn } from "./refinement-record.js";
import { callRole } from "./role-call.js";
import { editsReplySchema, type Hms, roleJsonSchemas } from "./role-schemas.js";

/**
 * Editor: turns the accepted HMS into PlannedEdit[]. Each edit is validated on its own, so one
 * malformed edit does not cost the others; the invalid ones are returned with their issues.
 */
export async function runEditor(options: {
  hms: Hms;
  harness: HarnessSummary;
  refiner: ChatProvider;
  turns: RoleTurn[];
}): Promise<{ edits: PlannedEdit[]; invalid: { edit: unknown; issues: string }[] }> {
  const reply = await callRole({
    refiner: options.refiner,
    role: "editor",
    schemaName: "edits",
    template: editorTemplate,
    evidence: { hms: options.hms, harness: options.harness },
    jsonSchema: roleJsonSchemas.edits,
    schema: editsReplySchema,
    round: 0,
    summary: `${options.hms.changes.length} accepted change(s), ${options.harness.files?.length ?? 0} harness file(s)`,
    turns: options.turns,
  });
  const edits: PlannedEdit[] = [];
  const invalid: { edit: unknown; issues: string }[] = [];
  for (const candidate of reply.edits) {
    const parsed = plannedEditSchema.safeParse(candidate);
    if (parsed.success) edits.push(parsed.data);
    else
      invalid.push({
        edit: candidate,
        issues: parsed.error.issues
          .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
          .join("; "),
      });
  }
  return { edits, invalid };
}
