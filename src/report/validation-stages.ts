import { formatPValue } from "../eval/statistics.js";
import type { IterationRecord } from "../evolve/result-schema.js";
import type { ChangeOutcome, StageRole, ValidationStage } from "../evolve/validation.js";
import { formatScore } from "./format.js";

// How every surface shows an iteration's validation: each stage by its own name, role, figures
// and decision (src/evolve/validation.ts), whatever step wrote it — a new step shows up here
// without a change. And how a record is named when an iteration has follow-ups (a repair round).

/** A record's key among the run's records: `2`, or `2.1` for the first follow-up of iteration 2. */
export function recordKey(iteration: Pick<IterationRecord, "index" | "followUp">): string {
  return iteration.followUp
    ? `${iteration.index}.${iteration.followUp.n}`
    : String(iteration.index);
}

/** `Iteration 2`, or `Iteration 2.1 (repair what the rejected candidate broke or exposed)`. */
export function recordTitle(iteration: Pick<IterationRecord, "index" | "followUp">): string {
  const purpose = iteration.followUp ? ` (${iteration.followUp.purpose})` : "";
  return `Iteration ${recordKey(iteration)}${purpose}`;
}

/** What a stage's decision means, by its role. */
const outcomeWords: Record<StageRole, [string, string]> = {
  screen: ["passed", "failed"],
  prune: ["pruned", "nothing left"],
  verdict: ["accepted", "rejected"],
  retry: ["retried", "no retry"],
  note: ["noted", "noted"],
};

/** `passed`, `rejected`, … for a stage. */
export function stageOutcome(stage: ValidationStage): string {
  const [yes, no] = outcomeWords[stage.role];
  return stage.decision.accepted ? yes : no;
}

/** What a stage measured, as plain text (score; fixed/broken with p; draws; other figures). */
export function stageFigures(stage: ValidationStage): string[] {
  const parts: string[] = [];
  if (stage.score) parts.push(formatScore(stage.score));
  const { comparison, draws } = stage;
  if (comparison)
    parts.push(
      `fixed ${comparison.fixed.length}, broken ${comparison.broken.length} of ${comparison.n}; ${formatPValue(comparison.pValue)}`,
    );
  if (draws)
    parts.push(
      `over ${draws.pairs} draws fixed ${draws.fixed}, broken ${draws.broken}; ${formatPValue(draws.pValue)}`,
    );
  for (const [name, value] of Object.entries(stage.figures ?? {})) parts.push(`${name} ${value}`);
  return parts;
}

/** One change judged on its own, as plain text: its patterns, kept or dropped, and why. */
export function changeLine(change: ChangeOutcome): string {
  const alone =
    change.fixed !== undefined && change.broken !== undefined && !change.unrun
      ? ` (fixed ${change.fixed}, broken ${change.broken})`
      : "";
  const unrun = change.unrun ? ` (not run: ${change.unrun})` : "";
  return `${change.patterns.join(", ") || "(no pattern)"}: ${change.kept ? "kept" : "dropped"}${alone}${unrun} — ${change.reason}`;
}

/** The stages of a validation as Markdown list lines, each change under its stage. */
export function stageMarkdownLines(
  stages: readonly ValidationStage[],
  cell: (text: string, max: number) => string,
): string[] {
  return stages.flatMap((stage) => [
    `- ${cell(stage.step, 80)} (${stageOutcome(stage)}): ${cell([...stageFigures(stage), stage.decision.reason].join("; "), 600)}`,
    ...(stage.changes ?? []).map((change) => `  - ${cell(changeLine(change), 400)}`),
  ]);
}

/** Stages that come before a verdict (screens, pruning, notes) and those that decide or retry. */
export function splitByRole(stages: readonly ValidationStage[]): {
  screening: ValidationStage[];
  deciding: ValidationStage[];
} {
  const deciding = (stage: ValidationStage) => stage.role === "verdict" || stage.role === "retry";
  return {
    screening: stages.filter((stage) => !deciding(stage)),
    deciding: stages.filter(deciding),
  };
}
