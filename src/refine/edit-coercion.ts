import { harnessReference } from "../config/harness-reference.js";
import { harnessModules } from "../config/harness-schema.js";

type Loose = Record<string, unknown>;

const isRecord = (value: unknown): value is Loose =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const kindAliases: Record<string, string> = {
  set: "set",
  set_field: "set",
  set_value: "set",
  update: "set",
  update_field: "set",
  add_rule: "add_rule",
  append_rule: "add_rule",
  add: "add_rule",
  remove_rule: "remove_rule",
  delete_rule: "remove_rule",
  replace_text: "replace_text",
  replace: "replace_text",
  replace_in_file: "replace_text",
  edit_text: "replace_text",
  write_file: "write_file",
  write: "write_file",
  create_file: "write_file",
};

/** For each operation, its fields and the names models commonly write for them. */
const fieldAliases: Record<string, Record<string, string[]>> = {
  set: { path: ["path", "field", "key"], value: ["value", "new_value", "to"] },
  add_rule: { text: ["text", "rule", "content", "value"] },
  remove_rule: { text: ["text", "rule", "content", "value"] },
  replace_text: {
    file: ["file", "path", "filename"],
    find: ["find", "old", "old_text", "search", "before"],
    replace: ["replace", "new", "new_text", "replacement", "after"],
  },
  write_file: { file: ["file", "path", "filename"], content: ["content", "text", "new"] },
};

const operationKeys = new Set(
  ["kind", "op", "type", "operation"].concat(
    ...Object.values(fieldAliases).flatMap((fields) => Object.values(fields)),
  ),
);

/**
 * Undoes the harmless slips a model makes in an Editor reply, so they cost no edit: a bare list
 * or a single edit instead of `{edits: […]}`.
 */
export function coerceEditsReply(raw: unknown): unknown {
  if (Array.isArray(raw)) return { edits: raw };
  if (!isRecord(raw)) return raw;
  if (Array.isArray(raw.edits)) return raw;
  if (isRecord(raw.edits)) return { ...raw, edits: [raw.edits] };
  if (isRecord(raw.edit) || typeof raw.kind === "string") return { edits: [raw] };
  return raw;
}

/**
 * Undoes the harmless slips of one planned edit: a missing `edit` wrapper (the operation's
 * fields beside `module`), aliased operation names and field names (`old`/`new` for
 * `find`/`replace`), extra keys, a `"true"` or `"8"` for a boolean or number field, a module
 * written loosely, `patterns` as a string or missing (the change's patterns). What it cannot
 * read is left as it is, for validation to report.
 */
export function coercePlannedEdit(
  raw: unknown,
  defaults: { module: string; patterns: string[] },
): unknown {
  if (!isRecord(raw)) return raw;
  let operation: unknown = raw.edit;
  if (!isRecord(operation)) {
    const fields = Object.entries(raw).filter(([key]) => operationKeys.has(key));
    if (fields.some(([key]) => ["kind", "op", "type", "operation"].includes(key)))
      operation = Object.fromEntries(fields);
  }
  const edit = coerceOperation(operation);
  return {
    module: coerceModule(raw.module, edit, defaults.module),
    patterns: coercePatterns(raw.patterns, defaults.patterns),
    rationale: coerceRationale(raw.rationale ?? raw.reason ?? raw.why),
    edit,
  };
}

function coerceOperation(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const named = raw.kind ?? raw.op ?? raw.type ?? raw.operation;
  if (typeof named !== "string") return raw;
  const normalised = named
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  const kind = kindAliases[normalised];
  if (!kind) return { ...raw, kind: named };
  const edit: Loose = { kind };
  for (const [field, aliases] of Object.entries(fieldAliases[kind])) {
    const alias = aliases.find((name) => raw[name] !== undefined);
    if (alias !== undefined) edit[field] = raw[alias];
  }
  if (kind === "set" && typeof edit.path === "string") {
    edit.path = edit.path.trim().replace(/^harness\.yaml[:#.]/, "");
    edit.value = coerceValue(edit.path as string, edit.value);
  }
  return edit;
}

/** A `"true"` for a boolean field, `"8"` for a number field, `8` for a text field. */
function coerceValue(path: string, value: unknown): unknown {
  const field = harnessReference().fields.find((candidate) => candidate.path === path);
  if (!field) return value;
  if (field.type === "boolean" && typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (["true", "yes", "on"].includes(word)) return true;
    if (["false", "no", "off"].includes(word)) return false;
  }
  if ((field.type === "integer" || field.type === "number") && typeof value === "string") {
    const number = Number(value.trim());
    if (value.trim() !== "" && Number.isFinite(number)) return number;
  }
  if (field.type === "string" && (typeof value === "number" || typeof value === "boolean"))
    return String(value);
  return value;
}

function coerceModule(raw: unknown, edit: unknown, fallback: string): string {
  const modules: readonly string[] = [...harnessModules, "command"];
  if (typeof raw === "string") {
    const candidate = raw
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_");
    if (modules.includes(candidate)) return candidate;
  }
  if (isRecord(edit) && edit.kind === "set" && typeof edit.path === "string") {
    const section = edit.path.split(".")[0];
    if (modules.includes(section)) return section;
  }
  if (isRecord(edit) && (edit.kind === "add_rule" || edit.kind === "remove_rule")) return "prompt";
  return modules.includes(fallback) ? fallback : "prompt";
}

function coercePatterns(raw: unknown, fallback: string[]): unknown {
  if (raw === undefined || raw === null) return [...fallback];
  if (typeof raw === "string") return raw.trim() === "" ? [...fallback] : [raw];
  if (Array.isArray(raw))
    return raw.map((item) => (typeof item === "string" ? item : String(item)));
  return raw;
}

function coerceRationale(raw: unknown): string {
  if (typeof raw !== "string") return "";
  return raw.length > 2000 ? `${raw.slice(0, 1997)}...` : raw;
}
