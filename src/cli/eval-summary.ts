import type { EvalResult } from "../eval/types.js";
import type { Downgrade } from "../llm/capabilities.js";
import { plural } from "../report/wording.js";

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** A readable summary of an evaluation for the terminal. */
export function formatEvalSummary(result: EvalResult): string {
  const passed = result.tasks.filter((task) => task.pass).length;
  const infra = result.infraErrors
    ? `, ${plural(result.infraErrors, "rollout")} did not reach the model (not scored)`
    : "";
  const lines = [
    `${result.split}: accuracy ${percent(result.accuracy)} (${passed}/${result.n}${infra}), 95% CI ${percent(result.interval[0])}–${percent(result.interval[1])}  [harness ${result.harnessHash.slice(0, 12)}, model ${result.model}]`,
  ];
  for (const [category, entry] of Object.entries(result.byCategory)) {
    lines.push(`  ${category.padEnd(24)} ${percent(entry.accuracy).padStart(6)}  (n=${entry.n})`);
  }
  const { cost } = result;
  const tokens = cost.promptTokens + cost.completionTokens;
  lines.push(
    `  rollouts ${cost.rollouts} run, ${cost.cachedRollouts} cached · ${cost.llmCalls} LLM calls · ${tokens.toLocaleString("en-US")} tokens · $${cost.costUsd.toFixed(4)} · ${(cost.wallMs / 1000).toFixed(1)} s`,
  );
  return `${lines.join("\n")}\n`;
}

/** The capability steps the endpoints forced, one line each (nothing when there were none). */
export function formatDowngrades(downgrades: readonly Downgrade[]): string {
  if (downgrades.length === 0) return "";
  const lines = downgrades.map(
    (step) =>
      `  ${step.parameter}: ${step.from} → ${step.to} for ${step.model} at ${step.endpoint}${step.remembered ? " (remembered from an earlier run)" : ""}`,
  );
  return `endpoint capabilities stepped down (the server refused a parameter):\n${lines.join("\n")}\n`;
}
