import type { GateResult } from "../evolve/gate-result.js";
import type { EvolveResult } from "../evolve/result-schema.js";
import { mermaidAccuracyChart } from "./accuracy-series.js";
import { formatScore } from "./format.js";
import { renderGateComment } from "./gate-comment.js";
import { costSection } from "./markdown-measures.js";
import { summarySection } from "./markdown-sections.js";
import { sandboxWarning } from "./sandbox-section.js";
import { scrubSecrets } from "./scrub.js";
import { acceptedSentence } from "./wording.js";

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Markdown for the Actions job summary of an evolve and/or gate run (tables, Mermaid chart). */
export function renderJobSummary(input: {
  evolve?: EvolveResult;
  gate?: GateResult;
  reportUrl?: string;
  secrets?: string[];
}): string {
  const parts = ["# Ecdysis"];
  // The gate comment below carries its own.
  const warning = sandboxWarning(input.evolve?.sandbox);
  if (warning) parts.push(warning);
  if (input.evolve) {
    parts.push(
      summarySection(input.evolve),
      mermaidAccuracyChart(input.evolve),
      `${capitalise(acceptedSentence(input.evolve))}. Final held-out ${formatScore(input.evolve.final.heldout)}.`,
      costSection(input.evolve),
    );
  }
  if (input.gate) parts.push(renderGateComment(input.gate));
  if (input.reportUrl) parts.push(`Full report: ${input.reportUrl}`);
  return scrubSecrets(`${parts.join("\n\n")}\n`, input.secrets);
}
