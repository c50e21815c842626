import type { EvolveResult } from "../evolve/result-schema.js";
import { mermaidAccuracyChart } from "./accuracy-series.js";
import {
  costSection,
  diffSection,
  patternsSection,
  reasoningSection,
  rejectionsSection,
  summarySection,
} from "./markdown-sections.js";
import { scrubSecrets } from "./scrub.js";

/** report.md of an evolve run: summary, chart, patterns, the roles' reasoning, rejections, diff, cost. Secrets scrubbed. */
export function renderMarkdown(result: EvolveResult, options: { secrets?: string[] } = {}): string {
  const text = [
    `# Ecdysis report (${result.strategy})`,
    "",
    summarySection(result),
    "",
    "## Accuracy per iteration",
    "",
    mermaidAccuracyChart(result),
    "",
    patternsSection(result),
    "",
    reasoningSection(result),
    "",
    rejectionsSection(result),
    "",
    diffSection(result),
    "",
    costSection(result),
    "",
  ].join("\n");
  return scrubSecrets(text, options.secrets);
}
