import type { EvolveResult } from "../evolve/result-schema.js";
import { downgradeLines, formatDelta, formatScore, percent, usd } from "./format.js";
import { escapeHtml as h } from "./html.js";
import { spendSplit } from "./markdown-measures.js";
import { gateSentence } from "./markdown-sections.js";
import { spendRows } from "./measure-rows.js";
import { acceptedSentence, budgetSentence, runSentence, stopSentence } from "./wording.js";

/** Seed versus final on train and held-out, the run in one sentence, the gate, per-task spend. */
export function summaryHtml(result: EvolveResult): string {
  const rows = (["train", "heldout"] as const)
    .map(
      (split) =>
        `<tr><td>${split === "train" ? "Train" : "Held-out"}</td><td>${h(formatScore(result.baseline[split]))}</td><td>${h(formatScore(result.final[split]))}</td><td>${h(formatDelta(result.baseline[split].accuracy, result.final[split].accuracy))}</td></tr>`,
    )
    .join("");
  const run = runSentence(result);
  return `<section id="summary"><h2>Summary</h2><table><tr><th>Split</th><th>Seed harness</th><th>Final harness</th><th>Change</th></tr>${rows}</table>
<p>Strategy <code>${h(result.strategy)}</code>, seed ${result.seed}, model <code>${h(result.model)}</code>; ${h(acceptedSentence(result))}; ${h(stopSentence(result))} (<code>${h(result.stoppedBy)}</code>).</p>
${run ? `<p>Run: ${h(run)}.</p>` : ""}
<p class="gate ${result.gate.passed ? "accepted" : "rejected"}"><strong>Held-out gate: ${result.gate.passed ? "passed" : "failed"}</strong> — ${h(gateSentence(result))}</p>${endpoints(result)}${spend(result)}</section>`;
}

function endpoints(result: EvolveResult): string {
  const lines = downgradeLines(result);
  if (lines.length === 0) return "";
  return `\n<p><strong>Endpoint capabilities stepped down</strong> (the server refused a parameter):</p><ul>${lines.map((line) => `<li>${h(line)}</li>`).join("")}</ul>`;
}

function spend(result: EvolveResult): string {
  const rows = spendRows(result);
  if (rows.length === 0) return "";
  return `<h3 id="spend">Cost and tokens per task</h3><table class="numeric"><tr><th></th><th>Seed harness</th><th>Final harness</th><th>Final ÷ seed</th></tr>${rows
    .map(
      (row) =>
        `<tr><td>${h(row.label)}</td><td>${h(row.seed)}</td><td>${h(row.final)}</td><td>${h(row.ratio)}</td></tr>`,
    )
    .join(
      "",
    )}</table><p class="muted">Every sample's rollouts, cached or not (what running the harness costs, not what this run paid).</p>`;
}

/** The run's spend: rollouts, calls, tokens, cost, wall time, refinement share. */
export function costHtml(result: EvolveResult): string {
  const cost = result.cost;
  return `<section id="cost"><h2>Cost of this run</h2><table class="numeric"><tr><th>Rollouts</th><th>LLM calls</th><th>Prompt tokens</th><th>Completion tokens</th><th>Cost</th><th>Wall time</th><th>Refinement share</th></tr>
<tr><td>${cost.rollouts}</td><td>${cost.llmCalls}</td><td>${cost.promptTokens}</td><td>${cost.completionTokens}</td><td>${usd(cost.costUsd)}</td><td>${(cost.wallMs / 1000).toFixed(1)} s</td><td>${percent(cost.refinementShare)}</td></tr></table><p>${h(spendSplit(cost))}</p><p class="muted">Counted: uncached work only (cached rollouts and replayed calls are free).</p>${budgetParagraph(result)}</section>`;
}

/** What the budget covered (`budgetSentence`), when the result records it. */
function budgetParagraph(result: EvolveResult): string {
  const sentence = budgetSentence(result);
  return sentence ? `<p>${h(sentence)}</p>` : "";
}

/** The harness diff as a patch. */
export function diffHtml(result: EvolveResult): string {
  const files = result.harness.changedFiles
    .map((file) => `<li><code>${h(file.path)}</code> +${file.added} −${file.removed}</li>`)
    .join("");
  return `<section id="diff"><h2>Harness diff</h2>${files ? `<ul>${files}</ul>` : ""}<pre class="diff">${h(result.harness.patch || "(no change: the final harness is the seed harness)")}</pre></section>`;
}
