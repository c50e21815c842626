import { untrustedText } from "../diagnose/untrusted-text.js";
import { harnessRules } from "../harness/render.js";
import type { LoadedHarness } from "../harness/types.js";

/** What the roles see of the harness: its config as JSON and its rules (and, for the Editor, files). */
export interface HarnessSummary {
  kind: "builtin" | "command";
  config: Record<string, unknown>;
  rules: string[];
  files?: { path: string; content: string }[];
}

const textFile = /\.(md|markdown|txt|ya?ml|json|toml|py|js|mjs|ts|sh|prompt)$/i;

/**
 * Summarises a harness for a role prompt. `withFiles` adds the text files (bounded per file and
 * in total) so the Editor can quote exact passages.
 */
export function summariseHarness(
  harness: LoadedHarness,
  options: { withFiles?: boolean } = {},
): HarnessSummary {
  const config: Record<string, unknown> =
    harness.kind === "builtin" ? { ...(harness.config ?? {}) } : { command: harness.command ?? [] };
  const summary: HarnessSummary = { kind: harness.kind, config, rules: harnessRules(harness) };
  if (!options.withFiles) return summary;
  let budget = 16_000;
  const files: { path: string; content: string }[] = [];
  for (const path of Object.keys(harness.files).sort()) {
    if (!textFile.test(path) || budget <= 0) continue;
    const content = untrustedText(harness.files[path], Math.min(4_000, budget));
    budget -= content.length;
    files.push({ path, content });
  }
  return { ...summary, files };
}
