import type { HarnessConfig } from "../config/harness-schema.js";
import { parseHarnessYaml } from "../config/harness-yaml.js";
import { InputError } from "../errors/input-error.js";
import {
  type ContentRules,
  contentRules,
  defaultMaxEditBytes,
  defaultMaxFileBytes,
  guardedFiles,
  introducedContent,
  introducedLabels,
  maxEditedFiles,
} from "./content-guards.js";
import { applyToText, editNewText, editTarget } from "./edit-operations.js";
import type { GuardContext } from "./guard-context.js";
import { missingReference } from "./harness-references.js";
import { harnessHash } from "./hash.js";
import { checkEditPath } from "./path-guard.js";
import {
  type GuardRejection,
  type HarnessEdit,
  harnessEditSchema,
  type LabelFlag,
  type LoadedHarness,
  type PlannedEdit,
} from "./types.js";

/** What applyEdits returns: the new harness and the fate of every edit. */
export interface ApplyEditsResult {
  harness: LoadedHarness;
  applied: PlannedEdit[];
  rejected: GuardRejection[];
  /** Applied edits that introduce label words (allowed; shown to the reviewer). */
  flagged: LabelFlag[];
}

interface State {
  files: Record<string, string>;
  config: HarnessConfig | undefined;
  changed: Set<string>;
}

type Outcome =
  | {
      ok: true;
      file: string;
      text: string;
      config: HarnessConfig | undefined;
      labels: LabelFlag["words"];
    }
  | { ok: false; guard: GuardRejection["guard"]; reason: string };

/**
 * Applies planned edits to a harness in memory, in order, each through the deterministic guards
 * (path, schema, size, leak, secret) whatever an LLM said. The content guards read the whole
 * harness each edit would leave, every file, in the normal form (`introducedContent`), not only
 * the edit's own text: two edits that each carry half of a key, or half of a held-out input in
 * two files, are caught at the second. A
 * rejected edit changes nothing and is reported; the others still apply. An applied edit that
 * brings a label word (`GuardContext.labelWords`) is listed in `flagged` for the reviewer. Pure except for
 * lstat/realpath reads of the folder.
 */
export function applyEdits(options: {
  harness: LoadedHarness;
  edits: PlannedEdit[];
  guard: GuardContext;
}): ApplyEditsResult {
  const { harness, guard } = options;
  const rules = contentRules(guard);
  const state: State = { files: { ...harness.files }, config: harness.config, changed: new Set() };
  const applied: PlannedEdit[] = [];
  const rejected: GuardRejection[] = [];
  const flagged: LabelFlag[] = [];
  for (const planned of options.edits) {
    const outcome = checkEdit({ planned, harness, guard, rules, state });
    if (!outcome.ok) {
      rejected.push({ edit: planned, guard: outcome.guard, reason: outcome.reason });
      continue;
    }
    state.files[outcome.file] = outcome.text;
    state.config = outcome.config;
    state.changed.add(outcome.file);
    applied.push(planned);
    if (outcome.labels.length > 0)
      flagged.push({ edit: planned, file: outcome.file, words: outcome.labels });
  }
  const next: LoadedHarness = {
    ...harness,
    files: state.files,
    config: state.config,
    hash: harnessHash({ kind: harness.kind, files: state.files, command: harness.command }),
  };
  return { harness: next, applied, rejected, flagged };
}

type Refusal = Extract<Outcome, { ok: false }>;

/** One edit through every guard in turn, against the harness as the earlier edits left it. */
function checkEdit(input: {
  planned: PlannedEdit;
  harness: LoadedHarness;
  guard: GuardContext;
  rules: ContentRules;
  state: State;
}): Outcome {
  const { harness, guard, state } = input;
  const located = locateEdit(input);
  if ("ok" in located) return located;
  const { edit, file } = located;
  const newText = editNewText(edit);
  const maxEditBytes = guard.maxEditBytes ?? defaultMaxEditBytes;
  if (Buffer.byteLength(newText) > maxEditBytes) {
    return {
      ok: false,
      guard: "size",
      reason: `edit brings ${Buffer.byteLength(newText)} bytes; at most ${maxEditBytes} allowed`,
    };
  }
  if (!state.changed.has(file) && state.changed.size >= maxEditedFiles) {
    return { ok: false, guard: "size", reason: `edits may change at most ${maxEditedFiles} files` };
  }
  const before = state.files[file];
  const result = applyToText(edit, before);
  if (!result.ok) return { ok: false, guard: "schema", reason: result.reason };
  const validated = validateConfig({ harness, file, text: result.text, state });
  if ("reason" in validated) return { ok: false, guard: "schema", reason: validated.reason };
  const maxFileBytes = guard.maxFileBytes ?? defaultMaxFileBytes;
  if (Buffer.byteLength(result.text) > maxFileBytes) {
    return {
      ok: false,
      guard: "size",
      reason: `'${file}' would be ${Buffer.byteLength(result.text)} bytes; at most ${maxFileBytes} allowed`,
    };
  }
  return checkContent({ ...input, file, text: result.text, config: validated.config });
}

/** The edit, parsed, and the file it would change; or why the schema or path guard refuses it. */
function locateEdit(input: {
  planned: PlannedEdit;
  harness: LoadedHarness;
  guard: GuardContext;
  state: State;
}): { edit: HarnessEdit; file: string } | Refusal {
  const { harness, guard, state } = input;
  const parsed = harnessEditSchema.safeParse(input.planned.edit);
  if (!parsed.success)
    return {
      ok: false,
      guard: "schema",
      reason: `malformed edit: ${parsed.error.issues[0]?.message}`,
    };
  const edit = parsed.data;
  const target = editTarget(edit, state.config);
  if ("reason" in target) return { ok: false, guard: "schema", reason: target.reason };
  const path = checkEditPath({
    dir: harness.dir,
    path: target.file,
    editable: guard.editable,
    protectedPaths: guard.protectedPaths,
    existing: Object.keys(state.files),
  });
  if (!path.ok) return { ok: false, guard: "path", reason: path.reason };
  return { edit, file: path.path };
}

/**
 * The content guards on the whole harness the edit would leave: refused when it newly holds a
 * secret or a held-out answer, else applied with the label words it brings.
 */
function checkContent(input: {
  harness: LoadedHarness;
  rules: ContentRules;
  state: State;
  file: string;
  text: string;
  config: HarnessConfig | undefined;
}): Outcome {
  const { harness, state, file, text, config } = input;
  const texts = {
    before: guardedFiles({ kind: harness.kind, files: state.files, config: state.config }),
    after: guardedFiles({ kind: harness.kind, files: { ...state.files, [file]: text }, config }),
    rules: input.rules,
  };
  const finding = introducedContent(texts);
  if (finding)
    return { ok: false, guard: finding.guard, reason: `edit refused: '${file}' ${finding.reason}` };
  const labels = introducedLabels(texts);
  return { ok: true, file, text, config, labels };
}

function validateConfig(input: {
  harness: LoadedHarness;
  file: string;
  text: string;
  state: State;
}): { config: HarnessConfig | undefined } | { reason: string } {
  if (input.harness.kind !== "builtin") return { config: undefined };
  const files = { ...input.state.files, [input.file]: input.text };
  try {
    const config =
      input.file === "harness.yaml"
        ? parseHarnessYaml("harness.yaml", input.text)
        : input.state.config;
    if (!config) return { reason: "built-in harness has no config" };
    const missing = missingReference(config, files);
    if (missing) return { reason: `'${missing.field}': ${missing.problem}` };
    return { config };
  } catch (error) {
    if (error instanceof InputError)
      return { reason: `harness.yaml would be invalid: ${error.message}` };
    throw error;
  }
}
