import type { LoadedHarness, PlannedEdit } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import { EditComposer } from "./compose-edits.js";
import { type EditContext, editsReplySchemaFor, salvageEdits } from "./edit-validation.js";
import { harnessView } from "./harness-view.js";
import { editorTemplate } from "./prompts/editor.js";
import type { DroppedEdit, RoleTurn } from "./refinement-record.js";
import { callRole, RoleOutputUnusable } from "./role-call.js";
import { type Hms, roleJsonSchemas } from "./role-schemas.js";

/** The Editor's planned edits, and every edit it left out with why. */
export interface EditorResult {
  edits: PlannedEdit[];
  invalid: { edit: unknown; issues: string }[];
  dropped: DroppedEdit[];
}

type Change = Hms["changes"][number];
type Draft = { edits: PlannedEdit[]; invalid: { edit: unknown; issues: string }[] };

/**
 * Editor: turns the accepted HMS into PlannedEdit[]. Each change is drafted in its own call, all
 * at once, against the harness as shown (editable files first and whole); every edit is checked
 * against that view inside chatJson's bounded repair loop, so an invalid one goes back with its
 * issues. The drafts are then composed in the HMS's order (`EditComposer`): a change whose edits
 * would undo or clash with an earlier change's is drafted once more on the harness as it stands
 * after the earlier changes; what still clashes is refused. Nothing is left out silently: the
 * result lists every dropped, invalid and refused edit. Only when every change's reply is
 * unusable does the role fail.
 */
export async function runEditor(options: {
  hms: Hms;
  harness: LoadedHarness;
  editable?: string[];
  refiner: ChatProvider;
  turns: RoleTurn[];
}): Promise<EditorResult> {
  const draft = (change: Change, harness: LoadedHarness, earlier?: PlannedEdit[]) =>
    draftChange({ ...options, change, harness, earlier });
  const settled = await Promise.allSettled(
    options.hms.changes.map((change) => draft(change, options.harness)),
  );
  const errors = settled.flatMap((outcome) =>
    outcome.status === "rejected" ? [outcome.reason as unknown] : [],
  );
  const fatal = errors.find((error) => !(error instanceof RoleOutputUnusable));
  if (fatal !== undefined) throw fatal;
  if (errors.length > 0 && errors.length === settled.length) throw errors[0];

  const result: EditorResult = { edits: [], invalid: [], dropped: [] };
  const composer = new EditComposer(options.harness);
  for (const [index, outcome] of settled.entries()) {
    if (outcome.status === "rejected") {
      result.dropped.push({
        change: index,
        stage: "dropped",
        reason: `no usable Editor reply for this change: ${(outcome.reason as Error).message}`,
        edit: null,
      });
      continue;
    }
    let current = outcome.value;
    const trial = composer.add(index, current.edits, { commit: false });
    if (trial.conflicts.some((conflict) => conflict.redraft)) {
      // Drafted against the original files, it clashes with an earlier change: draft it again
      // on the harness as it stands now. An unusable re-draft keeps the first draft.
      const redrafted = await draft(
        options.hms.changes[index],
        composer.current(),
        result.edits,
      ).catch((error: unknown) => {
        if (error instanceof RoleOutputUnusable) return undefined;
        throw error;
      });
      if (redrafted) current = redrafted;
    }
    commitDraft({ result, composer, index, draft: current });
  }
  return result;
}

/**
 * Adds one change's final draft to the result: its invalid edits as dropped, then its edits
 * committed to the composer, each one the composer refuses listed with why.
 */
function commitDraft(options: {
  result: EditorResult;
  composer: EditComposer;
  index: number;
  draft: Draft;
}): void {
  const { result, index, draft } = options;
  for (const invalid of draft.invalid) {
    result.invalid.push(invalid);
    result.dropped.push({
      change: index,
      stage: "invalid",
      reason: invalid.issues,
      edit: invalid.edit,
    });
  }
  const composed = options.composer.add(index, draft.edits, { commit: true });
  result.edits.push(...composed.accepted);
  for (const conflict of composed.conflicts)
    result.dropped.push({
      change: index,
      stage: "refused",
      reason: conflict.reason,
      edit: conflict.edit,
    });
}

/** One Editor call for one HMS change, validated against what it was shown. */
async function draftChange(options: {
  change: Change;
  harness: LoadedHarness;
  editable?: string[];
  earlier?: PlannedEdit[];
  refiner: ChatProvider;
  turns: RoleTurn[];
}): Promise<Draft> {
  const { change } = options;
  const view = harnessView(options.harness, { role: "editor", editable: options.editable });
  const context: EditContext = {
    view,
    defaults: { module: change.module, patterns: change.patterns },
  };
  const redraft = options.earlier !== undefined;
  const evidence = {
    hms: { changes: [change] },
    harness: view,
    ...(redraft
      ? {
          alreadyApplied: {
            note: "Earlier changes of this HMS made these edits; the files shown include them. Draft this change on top of them and keep their text.",
            edits: options.earlier,
          },
        }
      : {}),
  };
  const reply = await callRole<Draft>({
    refiner: options.refiner,
    role: "editor",
    schemaName: "edits",
    template: editorTemplate,
    evidence,
    jsonSchema: roleJsonSchemas.edits,
    schema: editsReplySchemaFor(context).transform((value) => ({
      edits: value.edits,
      invalid: [],
    })),
    round: 0,
    summary: `${redraft ? "re-draft on the earlier changes: " : ""}${change.module}: ${change.change.slice(0, 120)} (${view.files?.length ?? 0} file(s) shown)`,
    turns: options.turns,
    salvage: (candidates) => {
      for (const candidate of candidates) {
        const salvaged = salvageEdits(candidate, context);
        if (salvaged) return salvaged;
      }
      return undefined;
    },
  });
  return reply;
}
