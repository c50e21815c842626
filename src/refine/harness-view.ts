import { defaultEditableGlobs } from "../config/config-schema.js";
import { describeField, harnessReference } from "../config/harness-reference.js";
import { redactSecrets } from "../diagnose/untrusted-text.js";
import { matchGlob } from "../harness/glob.js";
import { harnessRules, renderSystemPrompt } from "../harness/render.js";
import type { LoadedHarness } from "../harness/types.js";

/**
 * One harness file as a role sees it. `whole`: the exact text of the whole file; otherwise
 * `lines` says exactly which lines `content` holds (1-based, inclusive, of the file's total), and
 * only `replace_text` on that part may edit it.
 */
export interface ShownFile {
  path: string;
  editable: boolean;
  whole: boolean;
  content: string;
  lines?: { from: number; to: number; of: number };
}

/** What the roles see of the harness they improve (the `harness` key of their evidence). */
export interface HarnessView {
  kind: "builtin" | "command";
  /** Globs (relative to the harness folder) the edits may touch. */
  editable: string[];
  /** harness.yaml as parsed (built-in). */
  config?: Record<string, unknown>;
  /** The argv run per task (command). */
  command?: string[];
  /** The system message the runtime sends, rules and answer format included (built-in). */
  systemPrompt?: string;
  rules?: string[];
  /** What every module, tool and harness.yaml field is (built-in), generated from the schema. */
  reference?: { modules: string[]; tools: string[]; fields: string[] };
  files?: ShownFile[];
  /** Editable files that exist but did not fit in the view (never to be overwritten blind). */
  notShown?: string[];
}

/** Character budgets of the files shown: the Editor sees more than the analysis roles. */
const budgets = {
  analysis: { total: 8_000, perFile: 4_000 },
  editor: { total: 24_000, perFile: 12_000 },
} as const;

const textFile = /\.(md|markdown|txt|ya?ml|json|toml|py|js|mjs|cjs|ts|sh|prompt|jinja|j2)$/i;
const invisibleCharacters =
  /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/**
 * The harness as a role sees it. Analysis roles (Diagnostician, Architect, Skeptic) of a
 * built-in harness see its config, system prompt, rules, the generated reference and the
 * editable globs; of a command harness, its argv, globs and editable files. The Editor sees the
 * same plus the editable files first and whole (non-editable ones of a command harness last, in
 * what budget is left; a built-in harness's data files never). A file too large for the budget
 * is shown as its first lines with exact line numbers.
 */
export function harnessView(
  harness: LoadedHarness,
  options: { role: "analysis" | "editor"; editable?: string[] },
): HarnessView {
  const editable = [...(options.editable ?? defaultEditableGlobs)];
  const isEditable = (path: string) => editable.some((glob) => matchGlob(glob, path));
  const view: HarnessView =
    harness.kind === "builtin"
      ? {
          kind: "builtin",
          editable,
          config: { ...(harness.config ?? {}) },
          systemPrompt: redactSecrets(renderSystemPrompt(harness)),
          rules: harnessRules(harness).map(redactSecrets),
          reference: referenceLines(),
        }
      : { kind: "command", editable, command: harness.command ?? [] };
  if (harness.kind === "builtin" && options.role === "analysis") return view;
  const paths = Object.keys(harness.files)
    .filter((path) => textFile.test(path))
    .sort();
  const ordered = [
    ...paths.filter(isEditable),
    ...(harness.kind === "command" && options.role === "editor"
      ? paths.filter((path) => !isEditable(path))
      : []),
  ];
  const budget = budgets[options.role];
  let left: number = budget.total;
  const files: ShownFile[] = [];
  const notShown: string[] = [];
  for (const path of ordered) {
    const shown =
      left > 0 ? showFile(path, harness.files[path], Math.min(budget.perFile, left)) : undefined;
    if (!shown) {
      if (isEditable(path)) notShown.push(path);
      continue;
    }
    files.push({ ...shown, editable: isEditable(path) });
    left -= shown.content.length;
  }
  for (const path of Object.keys(harness.files).sort())
    if (!textFile.test(path) && isEditable(path)) notShown.push(path);
  return { ...view, files, ...(notShown.length > 0 ? { notShown } : {}) };
}

/**
 * The file whole when it fits and shows exactly (no secret redacted, no invisible character
 * stripped); else its first lines that fit, numbered. Undefined when not one line fits.
 */
function showFile(
  path: string,
  text: string,
  maxChars: number,
): Omit<ShownFile, "editable"> | undefined {
  const cleaned = redactSecrets(text.replace(invisibleCharacters, ""));
  if (cleaned === text && text.length <= maxChars) return { path, whole: true, content: text };
  const lines = cleaned.split("\n");
  let used = 0;
  let count = 0;
  while (count < lines.length && used + lines[count].length + 1 <= maxChars) {
    used += lines[count].length + 1;
    count++;
  }
  if (count === 0) return undefined;
  return {
    path,
    whole: false,
    content: lines.slice(0, count).join("\n"),
    lines: { from: 1, to: count, of: lines.length },
  };
}

function referenceLines(): NonNullable<HarnessView["reference"]> {
  const reference = harnessReference();
  return {
    modules: reference.modules.map((module) => `${module.name}: ${module.description}`),
    tools: reference.tools.map((tool) => tool.description),
    fields: reference.fields.map(describeField),
  };
}
