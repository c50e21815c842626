import type { HarnessConfig } from "../config/harness-schema.js";
import type { HarnessEdit } from "./types.js";
import { setYamlPath } from "./yaml-set.js";

/** The harness file an edit changes, or why it cannot name one. */
export function editTarget(
  edit: HarnessEdit,
  config: HarnessConfig | undefined,
): { file: string } | { reason: string } {
  if (edit.kind === "replace_text" || edit.kind === "write_file") return { file: edit.file };
  if (!config)
    return {
      reason: `a '${edit.kind}' edit needs a built-in harness (harness.yaml); this is a command harness`,
    };
  if (edit.kind === "set") return { file: "harness.yaml" };
  return { file: config.prompt.rules };
}

/** The new text an edit brings into the harness (what the size, leak and secret guards read). */
export function editNewText(edit: HarnessEdit): string {
  switch (edit.kind) {
    case "set":
      return String(edit.value);
    case "add_rule":
    case "remove_rule":
      return edit.kind === "add_rule" ? edit.text : "";
    case "replace_text":
      return edit.replace;
    case "write_file":
      return edit.content;
  }
}

/** The file's text after the edit, or why the edit does not apply to it. */
export function applyToText(
  edit: HarnessEdit,
  before: string | undefined,
): { ok: true; text: string } | { ok: false; reason: string } {
  switch (edit.kind) {
    case "set": {
      const result = setYamlPath({ text: before ?? "", path: edit.path, value: edit.value });
      return result.ok ? { ok: true, text: result.text } : result;
    }
    case "add_rule": {
      const rule = edit.text.replace(/\s+/g, " ").trim().replace(/^- /, "");
      if (ruleLines(before ?? "", rule).length > 0)
        return { ok: false, reason: `rule '${rule}' is already present` };
      const base = before ?? "";
      const separator = base === "" || base.endsWith("\n") ? "" : "\n";
      return { ok: true, text: `${base}${separator}- ${rule}\n` };
    }
    case "remove_rule": {
      const rule = edit.text.trim().replace(/^- /, "");
      const lines = (before ?? "").split("\n");
      const matches = ruleLines(before ?? "", rule);
      if (matches.length === 0) return { ok: false, reason: `no rule '${rule}' to remove` };
      return { ok: true, text: lines.filter((_, index) => !matches.includes(index)).join("\n") };
    }
    case "replace_text": {
      if (before === undefined) return { ok: false, reason: `file '${edit.file}' does not exist` };
      const count = before.split(edit.find).length - 1;
      if (count !== 1)
        return {
          ok: false,
          reason: `'find' must occur exactly once in '${edit.file}'; it occurs ${count} times`,
        };
      const index = before.indexOf(edit.find);
      return {
        ok: true,
        text: before.slice(0, index) + edit.replace + before.slice(index + edit.find.length),
      };
    }
    case "write_file":
      return { ok: true, text: edit.content };
  }
}

function ruleLines(text: string, rule: string): number[] {
  const indices: number[] = [];
  text.split("\n").forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed.startsWith("- ") && trimmed.slice(2).trim() === rule) indices.push(index);
  });
  return indices;
}
