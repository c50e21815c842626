import { join } from "node:path";
import type { EvolveResult, Score } from "../evolve/result-schema.js";
import type { PatchBase } from "../harness/patch-root.js";
import { acceptedChanges } from "../report/accepted-changes.js";
import { formatScore } from "../report/format.js";
import { gateSentence } from "../report/markdown-sections.js";
import { sandboxWarningLine } from "../report/sandbox-section.js";
import { acceptedSentence, plural, stopSentence } from "../report/wording.js";
import { formatDowngrades } from "./eval-summary.js";
import { pathFrom, shellQuote } from "./shell-command.js";
import { compactCount, duration, money } from "./status-format.js";

const change = (before: Score, after: Score) =>
  `${formatScore(before).replace(/ \(n=\d+\)$/, "")} → ${formatScore(after)}`;

/** Rollouts of a split that did not reach the model (endpoint failures): counted apart, never scored. */
function unscored(result: EvolveResult, split: "train" | "heldout"): string {
  const count = (result.baseline[split].infraErrors ?? 0) + (result.final[split].infraErrors ?? 0);
  return count > 0 ? `  (${plural(count, "rollout")} did not reach the model, not scored)` : "";
}

/** The cost line: total, split agent / refiner (calls, tokens), rollouts and wall time. */
function costLine(result: EvolveResult): string {
  const { cost } = result;
  const tokens = cost.promptTokens + cost.completionTokens;
  const agent = {
    calls: cost.llmCalls - cost.refinement.llmCalls,
    tokens: tokens - cost.refinement.tokens,
    costUsd: cost.costUsd - cost.refinement.costUsd,
  };
  return `cost: ${money(cost.costUsd)} — agent ${money(agent.costUsd)} (${plural(agent.calls, "call")}, ${compactCount(agent.tokens)} tokens), refiner ${money(cost.refinement.costUsd)} (${plural(cost.refinement.llmCalls, "call")}, ${compactCount(cost.refinement.tokens)} tokens); ${plural(cost.rollouts, "rollout")}; ${duration(cost.wallMs)} (uncached work only)`;
}

/** How to apply harness.patch, as commands that run as printed from `cwd`. */
function applyLines(options: { cwd: string; outDir: string; base: PatchBase }): string[] {
  const { cwd, base } = options;
  const patch = join(options.outDir, "harness.patch");
  const where = base.inRepository
    ? "the repository root"
    : "the config folder; it is in no git repository";
  const fromRoot = shellQuote(pathFrom(base.root, patch));
  const command =
    base.root === cwd
      ? `git apply ${fromRoot}`
      : `cd ${shellQuote(pathFrom(cwd, base.root))} && git apply ${fromRoot}`;
  return [`apply the evolved harness (paths relative to ${where}):`, `  ${command}`];
}

/**
 * What `ecdysis evolve` prints at the end: accuracies with intervals, what was accepted and why
 * the run stopped, each accepted edit (module, change, pattern), the held-out gate with its
 * p-value, the cost split agent/refiner, the report's path and how to apply the patch.
 */
export function formatEvolveSummary(options: {
  result: EvolveResult;
  outDir: string;
  cwd: string;
  base: PatchBase;
}): string {
  const { result, outDir } = options;
  const changes = acceptedChanges(result);
  const width = Math.max(0, ...changes.map((entry) => entry.module.length));
  const lines = [
    `train:    ${change(result.baseline.train, result.final.train)}${unscored(result, "train")}`,
    `held-out: ${change(result.baseline.heldout, result.final.heldout)}${unscored(result, "heldout")}`,
    `${acceptedSentence(result)}; ${stopSentence(result)}`,
    ...(changes.length > 0 ? ["accepted edits:"] : []),
    ...changes.map(
      (entry) =>
        `  ${entry.module.padEnd(width)}  ${entry.change} — ${entry.patterns.join(", ") || "no named pattern"} (iteration ${entry.iteration})`,
    ),
    `held-out gate: ${result.gate.passed ? "passed" : "failed"} — ${gateSentence(result)}`,
    costLine(result),
    `report: ${join(outDir, "report.html")} (and report.md, result.json)`,
    ...(result.harness.patch.trim() === ""
      ? ["the final harness equals the seed harness: nothing to apply"]
      : applyLines(options)),
  ];
  return `${lines.join("\n")}\n${formatDowngrades(result.endpoints?.downgrades ?? [])}${sandboxWarningLine(result.sandbox)}`;
}
