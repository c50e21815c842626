import { harnessFile } from "./harness-references.js";
import type { LoadedHarness } from "./types.js";

/**
 * The evolvable rules of a built-in harness: the text of every `- ` line of the rules file, in
 * order (empty for command harnesses).
 */
export function harnessRules(harness: LoadedHarness): string[] {
  if (!harness.config) return [];
  const text = harnessFile(harness.files, harness.config.prompt.rules) ?? "";
  return parseRules(text);
}

/** The `- ` lines of a rules file, without the bullet. */
export function parseRules(text: string): string[] {
  const rules: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed.startsWith("- ") && trimmed.length > 2) rules.push(trimmed.slice(2).trim());
  }
  return rules;
}

/**
 * The system message of a built-in harness as docs/sim-protocol.md §1 fixes it: the system
 * file, then `## Rules`, `## Answer format` (when an instruction is set) and, for the text
 * protocol, the `## Tools` section the caller renders. Empty for command harnesses.
 */
export function renderSystemPrompt(
  harness: LoadedHarness,
  options: { toolsSection?: string } = {},
): string {
  const config = harness.config;
  if (!config) return "";
  const sections: string[] = [];
  const system = (harnessFile(harness.files, config.prompt.system) ?? "").trim();
  if (system) sections.push(system);
  const rules = harnessRules(harness);
  if (rules.length > 0) sections.push(["## Rules", ...rules.map((rule) => `- ${rule}`)].join("\n"));
  const format = config.completion.format_instruction.trim();
  if (format) sections.push(`## Answer format\n${format}`);
  const tools = options.toolsSection?.trim();
  if (tools) sections.push(`## Tools\n${tools}`);
  return sections.join("\n\n");
}
