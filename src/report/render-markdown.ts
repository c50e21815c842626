import type { EvolveResult } from "../evolve/result-schema.js";
import { mermaidAccuracyChart } from "./accuracy-series.js";
import { labelWordsSection } from "./label-words-section.js";
import { costSection, heldoutSection } from "./markdown-measures.js";
import {
  diffSection,
  patternsSection,
  reasoningSection,
  rejectionsSection,
  summarySection,
} from "./markdown-sections.js";
import { codeReachSection, sandboxWarning } from "./sandbox-section.js";
import { scrubSecrets } from "./scrub.js";

/** report.md of an evolve run: summary, chart, held-out by category, patterns, the roles' reasoning, rejections, label words, diff, cost. Secrets scrubbed. */
export function renderMarkdown(result: EvolveResult, options: { secrets?: string[] } = {}): string {
  const labels = labelWordsSection(result);
  const warning = sandboxWarning(result.sandbox);
  const reach = codeReachSection(result.reaches);
  const text = [
    `# Ecdysis report (${result.strategy})`,
    "",
    ...(warning ? [warning, ""] : []),
    summarySection(result),
    "",
    "## Accuracy per iteration",
    "",
    mermaidAccuracyChart(result),
    "",
    heldoutSection(result),
    "",
    patternsSection(result),
    "",
    reasoningSection(result),
    "",
    rejectionsSection(result),
    "",
    ...(labels ? [labels, ""] : []),
    ...(reach ? [reach, ""] : []),
    diffSection(result),
    "",
    costSection(result),
    "",
  ].join("\n");
  return scrubSecrets(text, options.secrets);
}
