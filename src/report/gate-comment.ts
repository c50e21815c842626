import { formatPValue } from "../eval/statistics.js";
import type { FlipGroup, GateResult } from "../evolve/gate-result.js";
import { cell, codeSpan, formatDelta, formatScore, usd } from "./format.js";
import { codeReachSection, sandboxWarning } from "./sandbox-section.js";
import { scrubSecrets } from "./scrub.js";

function flipTable(title: string, groups: FlipGroup[]): string {
  if (groups.length === 0) return `### ${title}\n\nNo task flipped.`;
  // Task ids as code spans: an id like `@org/team` must not ping anyone from the comment.
  const list = (ids: string[]): string =>
    ids.length === 0
      ? "—"
      : ids
          .slice(0, 12)
          .map((id) => codeSpan(id, 60))
          .join(", ") + (ids.length > 12 ? ` … (+${ids.length - 12})` : "");
  return [
    `### ${title}`,
    "",
    "| Group | Fixed | Broken | Fixed tasks | Broken tasks |",
    "|---|---|---|---|---|",
    ...groups.map(
      (group) =>
        `| ${cell(group.key, 120)} | ${group.fixed.length} | ${group.broken.length} | ${list(group.fixed)} | ${list(group.broken)} |`,
    ),
  ].join("\n");
}

/** The gate's PR comment (src/github adds the hidden marker that makes it sticky): verdict, accuracies with intervals, McNemar, flips by category and failure pattern, cost per task. */
export function renderGateComment(
  gate: GateResult,
  options: { reportUrl?: string; secrets?: string[] } = {},
): string {
  const text = [
    `## Ecdysis held-out gate: ${gate.passed ? "✅ pass" : "❌ fail"}`,
    "",
    cell(gate.reason, 500),
    "",
    "| | Base | Head |",
    "|---|---|---|",
    `| Held-out accuracy | ${formatScore(gate.base.score)} | ${formatScore(gate.head.score)} (${formatDelta(gate.base.score.accuracy, gate.head.score.accuracy)}) |`,
    `| Cost per task | ${usd(gate.base.costPerTask)} | ${usd(gate.head.costPerTask)} |`,
    `| Tokens per task | ${gate.base.tokensPerTask.toFixed(0)} | ${gate.head.tokensPerTask.toFixed(0)} |`,
    "",
    `Paired on ${gate.comparison.n} tasks: fixed ${gate.comparison.fixed.length}, broken ${gate.comparison.broken.length}; exact McNemar one-sided (better) ${formatPValue(gate.comparison.pValue)}, (worse) ${formatPValue(gate.pWorse)}. Tolerance ${gate.tolerance}.`,
    "",
    flipTable("Flips by category", gate.flips.byCategory),
    "",
    flipTable("Flips by failure pattern", gate.flips.bySignal),
    "",
    ...(gate.sandbox?.warning ? [sandboxWarning(gate.sandbox), ""] : []),
    ...(gate.reaches?.length ? [codeReachSection(gate.reaches, "the base"), ""] : []),
    options.reportUrl ? `Details: ${options.reportUrl}` : "",
  ].join("\n");
  return scrubSecrets(text, options.secrets);
}
