import { z } from "zod";
import { type HarnessFieldReference, harnessReference } from "../config/harness-reference.js";
import { matchGlob } from "../harness/glob.js";
import { type PlannedEdit, plannedEditSchema } from "../harness/types.js";
import { coerceEditsReply, coercePlannedEdit } from "./edit-coercion.js";
import type { HarnessView, ShownFile } from "./harness-view.js";

/** What one Editor call was shown and asked: the edits it returns are checked against it. */
export interface EditContext {
  view: HarnessView;
  /** The HMS change's module and patterns, for edits that leave them out. */
  defaults: { module: string; patterns: string[] };
}

/** A problem with one edit, at a path inside it (`edit.find`), as the repair note shows it. */
export interface EditIssue {
  path: (string | number)[];
  message: string;
}

/** One edit after coercion: valid, or the issues that keep it from applying to the harness shown. */
export type EditVerdict = { ok: true; edit: PlannedEdit } | { ok: false; issues: EditIssue[] };

/**
 * Coerces one planned edit (see `coercePlannedEdit`) and checks it against the edit schema and
 * the harness as the Editor was shown it: a `set` names a harness.yaml field with a value of its
 * type and range; a file edit targets an editable file; a `find` occurs exactly once in the text
 * shown; a `write_file` replaces only a file shown whole.
 */
function validateEdit(raw: unknown, context: EditContext): EditVerdict {
  const parsed = plannedEditSchema.safeParse(coercePlannedEdit(raw, context.defaults));
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => ({
        path: issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
        message: kindMessage(issue.path, issue.message),
      })),
    };
  }
  const issues = harnessIssues(parsed.data, context.view);
  return issues.length === 0 ? { ok: true, edit: parsed.data } : { ok: false, issues };
}

const kinds = "set, add_rule, remove_rule, replace_text, write_file";

function kindMessage(path: PropertyKey[], message: string): string {
  return path.join(".") === "edit.kind" || (path.length === 1 && path[0] === "edit")
    ? `${message}: 'edit.kind' must be one of ${kinds}, with that operation's fields`
    : message;
}

function harnessIssues(planned: PlannedEdit, view: HarnessView): EditIssue[] {
  const edit = planned.edit;
  const at = (field: string, message: string): EditIssue[] => [{ path: ["edit", field], message }];
  if (edit.kind === "set" || edit.kind === "add_rule" || edit.kind === "remove_rule") {
    if (view.kind !== "builtin")
      return at(
        "kind",
        `a command harness has no harness.yaml or rules file: edit its files (${view.editable.join(", ")}) with replace_text or write_file`,
      );
    if (edit.kind === "set") return setIssues(edit.path, edit.value).map((m) => at("value", m)[0]);
    if (
      edit.kind === "remove_rule" &&
      !(view.rules ?? []).includes(edit.text.trim().replace(/^- /, ""))
    )
      return at("text", "no rule with exactly this text; copy it from the rules shown");
    return [];
  }
  if (!view.editable.some((glob) => matchGlob(glob, edit.file)))
    return at("file", `'${edit.file}' is not editable; editable: ${view.editable.join(", ")}`);
  const shown = view.files?.find((file) => file.path === edit.file);
  if (edit.kind === "write_file") {
    if (!shown && view.notShown?.includes(edit.file))
      return at(
        "file",
        `'${edit.file}' exists but was not shown; a whole-file write would replace what you have not seen`,
      );
    if (shown && !shown.whole)
      return at(
        "kind",
        `${partMessage(shown)}; a whole-file write built from it would drop the rest: use replace_text on the lines shown`,
      );
    return [];
  }
  if (!shown)
    return at("file", `'${edit.file}' is not among the files shown; replace_text needs its text`);
  const count = shown.content.split(edit.find).length - 1;
  if (count === 1) return [];
  const where = shown.whole
    ? `'${edit.file}'`
    : `the part of '${edit.file}' shown (lines ${shown.lines?.from}–${shown.lines?.to})`;
  return at(
    "find",
    count === 0
      ? `${JSON.stringify(clip(edit.find))} does not occur in ${where}; copy 'find' exactly from the file`
      : `${JSON.stringify(clip(edit.find))} occurs ${count} times in ${where}; quote enough around it to make it unique`,
  );
}

function partMessage(file: ShownFile): string {
  return file.lines
    ? `'${file.path}' was shown only in part (lines ${file.lines.from}–${file.lines.to} of ${file.lines.of})`
    : `'${file.path}' was shown only in part`;
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Why a value cannot be set at a harness.yaml path (none when it can). */
function setIssues(path: string, value: unknown): string[] {
  const field = harnessReference().fields.find((candidate) => candidate.path === path);
  if (!field) return [`'${path}' is not a field of harness.yaml (see the reference's fields)`];
  return valueIssues(field, value);
}

function valueIssues(field: HarnessFieldReference, value: unknown): string[] {
  const path = field.path;
  if (field.type === "list") return [`${path} is a list; edit harness.yaml with replace_text`];
  if (field.allowed && !field.allowed.includes(String(value)))
    return [`${path} must be one of ${field.allowed.join(", ")} (got ${JSON.stringify(value)})`];
  if (field.type === "boolean" && typeof value !== "boolean")
    return [`${path} is a boolean (got ${JSON.stringify(value)})`];
  if (field.type === "integer" || field.type === "number") {
    if (typeof value !== "number" || (field.type === "integer" && !Number.isInteger(value)))
      return [`${path} is an ${field.type} (got ${JSON.stringify(value)})`];
    const { min, max } = field.range ?? {};
    if (max !== undefined && value > max) return [`${path} is at most ${max} (got ${value})`];
    if (min !== undefined && value < min) return [`${path} is at least ${min} (got ${value})`];
  }
  if (field.type === "string") {
    if (typeof value !== "string") return [`${path} is text (got ${JSON.stringify(value)})`];
    const maxLength = field.range?.maxLength;
    if (maxLength !== undefined && value.length > maxLength)
      return [`${path} holds at most ${maxLength} characters (got ${value.length})`];
  }
  return [];
}

/**
 * The Editor's reply schema for one call: the reply coerced (`coerceEditsReply`), then every
 * edit validated against what the call was shown. Inside chatJson's bounded repair loop, each
 * invalid edit's issues go back to the model (`edits.<i>.edit.find: …`).
 */
export function editsReplySchemaFor(context: EditContext) {
  return z.preprocess(coerceEditsReply, z.object({ edits: z.array(validatedEditSchema(context)) }));
}

/**
 * One planned edit, coerced and validated against what the call was shown; its issues are
 * reported at their path inside the reply (what chatJson's repair note sends back). Shared by
 * the Editor and the iterative baseline's one-call reflector.
 */
export function validatedEditSchema(context: EditContext) {
  return z.unknown().transform((raw, zodContext) => {
    const verdict = validateEdit(raw, context);
    if (verdict.ok) return verdict.edit;
    for (const issue of verdict.issues)
      zodContext.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return z.NEVER;
  });
}

/** Splits a reply that stayed invalid after the repairs: its valid edits, and the rest with why. */
export function salvageEdits(
  raw: unknown,
  context: EditContext,
): { edits: PlannedEdit[]; invalid: { edit: unknown; issues: string }[] } | undefined {
  const reply = coerceEditsReply(raw) as { edits?: unknown };
  if (!Array.isArray(reply?.edits)) return undefined;
  const result = { edits: [] as PlannedEdit[], invalid: [] as { edit: unknown; issues: string }[] };
  for (const candidate of reply.edits) {
    const verdict = validateEdit(candidate, context);
    if (verdict.ok) result.edits.push(verdict.edit);
    else
      result.invalid.push({
        edit: candidate,
        issues: verdict.issues
          .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
          .join("; "),
      });
  }
  return result;
}
