import { firstStage } from "../evolve/evidence.js";
import type { EvolveResult, IterationRecord, TraceExcerpt } from "../evolve/result-schema.js";
import { refinementSummary } from "../refine/refinement-record.js";
import { accuracySeries } from "./accuracy-series.js";
import { compactJson, downgradeLines, formatDelta, formatScore, percent, usd } from "./format.js";
import { anchorId, escapeHtml } from "./html.js";
import { gateSentence } from "./markdown-sections.js";
import { patternReasons, roleTurns } from "./records.js";
import { scrubSecrets } from "./scrub.js";
import { svgAccuracyChart } from "./svg-chart.js";
import { acceptedSentence, patternStanding, plural, runSentence, stopSentence } from "./wording.js";

const style = `body{font:14px/1.5 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1b1f24}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap}details{margin:.3em 0}
.systematic{color:#1a7f37}.model-specific{color:#9a6700}.accepted{color:#1a7f37}.rejected{color:#cf222e}
svg text{font-size:11px;fill:#57606a}svg .grid{stroke:#eaeef2}svg .line{fill:none;stroke:#0969da;stroke-width:2}svg circle{fill:#0969da}`;

const h = escapeHtml;

function summary(result: EvolveResult): string {
  const rows = (["train", "heldout"] as const)
    .map(
      (split) =>
        `<tr><td>${split === "train" ? "Train" : "Held-out"}</td><td>${h(formatScore(result.baseline[split]))}</td><td>${h(formatScore(result.final[split]))}</td><td>${h(formatDelta(result.baseline[split].accuracy, result.final[split].accuracy))}</td></tr>`,
    )
    .join("");
  return `<h2>Summary</h2><table><tr><th>Split</th><th>Seed harness</th><th>Final harness</th><th>Change</th></tr>${rows}</table>
<p>Strategy <code>${h(result.strategy)}</code>, seed ${result.seed}, model <code>${h(result.model)}</code>; ${h(acceptedSentence(result))}; ${h(stopSentence(result))} (<code>${h(result.stoppedBy)}</code>).</p>
${runSentence(result) ? `<p>Run: ${h(runSentence(result) ?? "")}.</p>` : ""}
<p><strong>Held-out gate: ${result.gate.passed ? "passed" : "failed"}</strong> — ${h(gateSentence(result))}</p>${endpoints(result)}`;
}

function endpoints(result: EvolveResult): string {
  const lines = downgradeLines(result);
  if (lines.length === 0) return "";
  return `\n<p><strong>Endpoint capabilities stepped down</strong> (the server refused a parameter):</p><ul>${lines.map((line) => `<li>${h(line)}</li>`).join("")}</ul>`;
}

function trace(excerpt: TraceExcerpt): string {
  const steps = excerpt.steps
    .map(
      (step, index) =>
        `<li>${step.assistant === null ? "<em>(no text)</em>" : `<pre>${h(step.assistant)}</pre>`}${step.toolCalls
          .map(
            (call) =>
              `<div>${call.error ? "⚠ " : ""}<code>${h(call.name)}(${h(call.arguments)})</code> → <code>${h(call.result)}</code></div>`,
          )
          .join("")}<small>step ${index + 1}</small></li>`,
    )
    .join("");
  return `<details id="${anchorId("trace", excerpt.key)}"><summary>Trace of <code>${h(excerpt.taskId)}</code> (${h(excerpt.category)}): ${h(excerpt.verdict.reason)}${excerpt.events.length ? `, events ${h(excerpt.events.join(", "))}` : ""}</summary>
<p>Answer: <code>${h(excerpt.answer ?? "(none)")}</code></p><ol>${steps}</ol><p>Output:</p><pre>${h(excerpt.output)}</pre></details>`;
}

function iterationSection(iteration: IterationRecord): string {
  const byTask = new Map(iteration.traces.map((excerpt) => [excerpt.taskId, excerpt]));
  const byKey = new Map(iteration.traces.map((excerpt) => [excerpt.key, excerpt]));
  const patterns = (iteration.diagnosis?.patterns ?? [])
    .map((pattern) => {
      const links = pattern.examples
        .map((example) => {
          const excerpt =
            (example.rolloutKey && byKey.get(example.rolloutKey)) || byTask.get(example.taskId);
          return excerpt
            ? `<a href="#${anchorId("trace", excerpt.key)}">${h(example.taskId)}</a>`
            : h(example.taskId);
        })
        .join(", ");
      return `<tr><td>${h(pattern.name)}<br><small>${h(pattern.description)}</small></td><td class="${pattern.kind}">${patternStanding(pattern)}</td><td>${pattern.support.tasks} / ${pattern.support.categories}</td><td>${h(pattern.support.categoryNames.join(", "))}</td><td>${links}</td><td>${h(patternReasons(pattern))}</td></tr>`;
    })
    .join("");
  const refinement = iteration.refinement;
  const roles = (refinement ? roleTurns(refinement) : [])
    .map(
      (turn) =>
        `<details><summary>${h(turn.role)} (round ${turn.round})</summary><pre>${h(compactJson(turn.output, 4000))}</pre></details>`,
    )
    .join("");
  const dropped = [iteration.refinement, firstStage(iteration.evidence, "repaired")?.refinement]
    .flatMap((candidate) => candidate?.droppedEdits ?? [])
    .map(
      (edit) =>
        `<li>${h(edit.stage)}${edit.change === null ? "" : ` (change ${edit.change + 1})`}: ${h(edit.reason)}</li>`,
    )
    .join("");
  const guard = iteration.guardRejections
    .map((rejection) => `<li>${h(rejection.guard)}: ${h(rejection.reason)}</li>`)
    .join("");
  const repaired = firstStage(iteration.evidence, "repaired")?.labelFlags ?? [];
  const labels = [...(iteration.labelFlags ?? []), ...repaired]
    .map(
      (flag) =>
        `<li>${h(flag.file)}: ${h(flag.words.map((word) => `${word.text} (${word.why})`).join(", "))} — <code>${h(compactJson(flag.edit.edit, 200))}</code></li>`,
    )
    .join("");
  return `<section><h3>Iteration ${iteration.index}: <span class="${iteration.verdict}">${h(iteration.verdict)}</span></h3><p>${h(iteration.reason)}</p>
${patterns ? `<table><tr><th>Pattern</th><th>Kind</th><th>Support (tasks / categories)</th><th>Categories</th><th>Examples</th><th>Reasons</th></tr>${patterns}</table>` : ""}
${refinement ? `<p><strong>HMS</strong> (${plural(refinement.rounds.length, "round")}, ${h(refinement.outcome)}): ${h(refinementSummary(refinement))}</p>${roles}` : ""}
${dropped ? `<p>Edits the Editor left out:</p><ul>${dropped}</ul>` : ""}
${guard ? `<p>Guard rejections:</p><ul>${guard}</ul>` : ""}
${labels ? `<p>Label words for the reviewer (expected answers written as labels, not leaks):</p><ul>${labels}</ul>` : ""}
${iteration.traces.map(trace).join("\n")}</section>`;
}

/** report.html: self-contained (inline CSS and SVG, no scripts), every text HTML-escaped and secrets scrubbed. */
export function renderHtml(result: EvolveResult, options: { secrets?: string[] } = {}): string {
  const cost = result.cost;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ecdysis report (${h(result.strategy)})</title><style>${style}</style></head><body>
<h1>Ecdysis report (${h(result.strategy)})</h1>
${summary(result)}
<h2>Accuracy per iteration</h2>${svgAccuracyChart(accuracySeries(result))}
<h2>Iterations</h2>${result.iterations.map(iterationSection).join("\n") || "<p>No iteration ran.</p>"}
<h2>Harness diff</h2><pre>${h(result.harness.patch || "(no change)")}</pre>
<h2>Cost</h2><table><tr><th>Rollouts</th><th>LLM calls</th><th>Prompt tokens</th><th>Completion tokens</th><th>Cost</th><th>Wall time</th><th>Refinement share</th></tr>
<tr><td>${cost.rollouts}</td><td>${cost.llmCalls}</td><td>${cost.promptTokens}</td><td>${cost.completionTokens}</td><td>${usd(cost.costUsd)}</td><td>${(cost.wallMs / 1000).toFixed(1)} s</td><td>${percent(cost.refinementShare)}</td></tr></table>
</body></html>
`;
  return scrubSecrets(html, options.secrets);
}
