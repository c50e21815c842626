import { formatPValue } from "../eval/statistics.js";
import type { EvolveResult } from "../evolve/result-schema.js";
import { cell, codeSpan, formatDelta, percent, usd } from "./format.js";
import { formatCategoryScore, heldoutCategoryRows, spendRows } from "./measure-rows.js";
import { budgetSentence, plural } from "./wording.js";

/**
 * The held-out view in Markdown (as report.html shows it): accuracy per category with 95%
 * Wilson intervals, seed versus final, and the flipped tasks. Results only — no held-out task
 * text is kept anywhere.
 */
export function heldoutSection(result: EvolveResult): string {
  const rows = heldoutCategoryRows(result);
  const { comparison } = result.gate;
  const list = (ids: string[]) =>
    ids.length === 0
      ? "—"
      : ids
          .slice(0, 20)
          .map((id) => codeSpan(id, 60))
          .join(", ") + (ids.length > 20 ? ` … (+${ids.length - 20})` : "");
  const parts = ["## Held-out by category"];
  if (rows.length === 0) parts.push("", "Per-category results were not kept by this run.");
  else
    parts.push(
      "",
      "| Category | Seed harness | Final harness | Change |",
      "|---|---|---|---|",
      ...rows.map(
        (row) =>
          `| ${cell(row.category, 80)} | ${formatCategoryScore(row.seed)} | ${formatCategoryScore(row.final)} | ${formatDelta(row.seed.accuracy, row.final.accuracy)} |`,
      ),
    );
  parts.push(
    "",
    `Flipped on ${comparison.n} paired tasks (${formatPValue(comparison.pValue)}): fixed ${list(comparison.fixed)}; broken ${list(comparison.broken)}.`,
  );
  return parts.join("\n");
}

/** The agent's spend (its rollouts' calls, a command harness's own included) and the refiner roles', apart. */
export function spendSplit(cost: EvolveResult["cost"]): string {
  const { refinement } = cost;
  const agentTokens = cost.promptTokens + cost.completionTokens - refinement.tokens;
  const agentCalls = cost.llmCalls - refinement.llmCalls;
  const agent = `${usd(cost.costUsd - refinement.costUsd)} (${plural(agentCalls, "call")}, ${agentTokens} tokens)`;
  const refiner = `${usd(refinement.costUsd)} (${plural(refinement.llmCalls, "call")}, ${refinement.tokens} tokens)`;
  return `Agent ${agent} · refiner ${refiner}.`;
}

/** Cost: rollouts, calls, tokens, cost, wall time, the refinement share, agent and refiner spend apart, and per-task spend seed vs final. */
export function costSection(result: EvolveResult): string {
  const cost = result.cost;
  const spend = spendRows(result);
  return [
    "## Cost",
    "",
    "| Rollouts | LLM calls | Prompt tokens | Completion tokens | Cost | Wall time | Refinement share |",
    "|---|---|---|---|---|---|---|",
    `| ${cost.rollouts} | ${cost.llmCalls} | ${cost.promptTokens} | ${cost.completionTokens} | ${usd(cost.costUsd)} | ${(cost.wallMs / 1000).toFixed(1)} s | ${percent(cost.refinementShare)} |`,
    "",
    spendSplit(cost),
    "",
    "Counted: uncached work only (cached rollouts and replayed calls are free).",
    ...[budgetSentence(result)].filter((line) => line !== undefined).flatMap((line) => ["", line]),
    ...(spend.length === 0
      ? []
      : [
          "",
          "| Per task (every sample, cached or not) | Seed harness | Final harness | Final ÷ seed |",
          "|---|---|---|---|",
          ...spend.map((row) => `| ${row.label} | ${row.seed} | ${row.final} | ${row.ratio} |`),
        ]),
  ].join("\n");
}
