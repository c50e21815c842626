import type { EvolveResult } from "../evolve/result-schema.js";
import { secretValueForms } from "../safety/secrets.js";
import { describeEdit } from "./accepted-changes.js";
import { accuracySeries } from "./accuracy-series.js";
import { escapeHtml as h } from "./html.js";
import { candidatesHtml } from "./html-candidates.js";
import { heldoutHtml } from "./html-heldout.js";
import { compressingPager } from "./html-pages.js";
import { patternsHtml } from "./html-patterns.js";
import { rejectionsHtml } from "./html-rejections.js";
import { rolesHtml } from "./html-roles.js";
import { rolloutsHtml } from "./html-rollouts.js";
import { reportCsp, reportScript, reportStyle } from "./html-script.js";
import { costHtml, diffHtml, summaryHtml } from "./html-summary.js";
import { tasksHtml } from "./html-tasks.js";
import { type HtmlInput, indexReport, type ReportIndex } from "./report-index.js";
import { scrubSecrets } from "./scrub.js";
import { svgAccuracyChart } from "./svg-chart.js";

const sections = [
  ["summary", "Summary"],
  ["chart", "Chart"],
  ["candidates", "Candidates"],
  ["heldout", "Held-out"],
  ["patterns", "Patterns"],
  ["rollouts", "Failing rollouts"],
  ["tasks", "Tasks"],
  ["refinement", "Refinement"],
  ["rejections", "Rejections"],
  ["diff", "Diff"],
  ["cost", "Cost"],
] as const;

function chartHtml(index: ReportIndex): string {
  const { result } = index;
  const accepted = result.iterations
    .filter((iteration) => iteration.verdict === "accepted")
    .map((iteration) => ({
      iteration: iteration.index,
      label: iteration.applied
        .map((planned) => `${planned.module}: ${describeEdit(planned.edit, 80)}`)
        .join("; "),
    }));
  const chart = svgAccuracyChart(accuracySeries(result), {
    heldout: { seed: result.baseline.heldout.accuracy, final: result.final.heldout.accuracy },
    accepted,
  });
  return `<section id="chart"><h2>Accuracy per iteration</h2><p class="muted">The line is each iteration's train batch under the harness in force after it; the squares are the held-out accuracy of the seed and final harnesses; dashed lines mark accepted proposals (hover for their edits).</p><div class="wide">${chart}</div></section>`;
}

/**
 * report.html: one self-contained file (inline CSS, inline SVG and one fixed script allowed by
 * hash in its Content-Security-Policy; nothing loads from the network, it works from file://).
 * A drill-down: summary and per-task spend, chart, candidate table, held-out view, patterns with
 * all members, every failing rollout with task, expected, output, answer, scorer reason and
 * trace, train tasks, the roles with their prompts, rejections, diff, cost. Every run string is
 * HTML-escaped and secrets are scrubbed. The failing rollouts and the train tasks come in pages
 * of `pageSize` (200): the first inline, the others compressed in the file, opened on demand.
 */
export function renderHtml(
  input: HtmlInput | EvolveResult,
  options: {
    secrets?: string[];
    /** Items of a long list kept inline; the rest come in compressed pages (`html-pages.ts`). */
    pageSize?: number;
  } = {},
): string {
  const index = indexReport("result" in input ? input : { result: input });
  // A secret that reached a record shows here HTML-escaped: scrub that form as well.
  const secrets = options.secrets ?? [];
  const forms = [...secrets, ...secrets.flatMap(secretValueForms)];
  const scrub = (html: string) => scrubSecrets(html, forms);
  const { pager, fill } = compressingPager({ pageSize: options.pageSize, scrub });
  const { result } = index;
  const nav = sections.map(([id, label]) => `<a href="#${id}">${label}</a>`).join("");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${reportCsp()}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ecdysis report (${h(result.strategy)})</title><style>${reportStyle}</style></head><body>
<h1>Ecdysis report (${h(result.strategy)})</h1>
<nav class="toc">${nav}</nav>
${summaryHtml(result)}
${chartHtml(index)}
${candidatesHtml(index)}
${heldoutHtml(index)}
${patternsHtml(index)}
${rolloutsHtml(index, pager)}
${tasksHtml(index, pager)}
${rolesHtml(index)}
${rejectionsHtml(index)}
${diffHtml(result)}
${costHtml(result)}
<script>${reportScript}</script>
</body></html>
`;
  return fill(html);
}
