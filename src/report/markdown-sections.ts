import { formatPValue } from "../eval/statistics.js";
import type { EvolveResult, IterationRecord } from "../evolve/result-schema.js";
import { refinementSummary } from "../refine/refinement-record.js";
import {
  cell,
  clip,
  codeSpan,
  compactJson,
  downgradeLines,
  fenced,
  formatDelta,
  formatScore,
} from "./format.js";
import { namePatternIds, patternNameMap } from "./pattern-names.js";
import { patternReasons, roleTurns } from "./records.js";
import { unusableReplySentence } from "./reply-sentence.js";
import { recordKey, recordTitle, stageMarkdownLines } from "./validation-stages.js";
import { acceptedSentence, patternStanding, plural, runSentence, stopSentence } from "./wording.js";

/** The gate's verdict reason with its paired test: fixed, broken and the one-sided McNemar p. */
export function gateSentence(result: EvolveResult): string {
  const { comparison } = result.gate;
  return `${result.gate.reason} (fixed ${comparison.fixed.length}, broken ${comparison.broken.length}, one-sided McNemar ${formatPValue(comparison.pValue)})`;
}

/** Baseline vs final on train and held-out, with 95% Wilson intervals, and the gate. */
export function summarySection(result: EvolveResult): string {
  const rows = (["train", "heldout"] as const).map((split) => {
    const before = result.baseline[split];
    const after = result.final[split];
    return `| ${split === "train" ? "Train" : "Held-out"} | ${formatScore(before)} | ${formatScore(after)} | ${formatDelta(before.accuracy, after.accuracy)} |`;
  });
  return [
    "## Summary",
    "",
    "| Split | Seed harness | Final harness | Change |",
    "|---|---|---|---|",
    ...rows,
    "",
    `Strategy \`${result.strategy}\`, seed ${result.seed}, model \`${cell(result.model, 80)}\`; ${acceptedSentence(result)}; ${cell(stopSentence(result), 600)} (\`${result.stoppedBy}\`).`,
    ...(runSentence(result) ? ["", `Run: ${cell(runSentence(result) ?? "", 300)}.`] : []),
    "",
    `**Held-out gate: ${result.gate.passed ? "passed" : "failed"}** — ${cell(gateSentence(result), 600)}.`,
    ...(unusableReplySentence(result)
      ? ["", `${cell(unusableReplySentence(result) ?? "", 600)}.`]
      : []),
    ...endpointLines(result),
  ].join("\n");
}

/** What the endpoints could not do, as a list under the summary (nothing when they could). */
function endpointLines(result: EvolveResult): string[] {
  const lines = downgradeLines(result);
  if (lines.length === 0) return [];
  return [
    "",
    "**Endpoint capabilities stepped down** (the server refused a parameter; see docs/endpoints.md):",
    "",
    ...lines.map((line) => `- ${cell(line, 600)}`),
  ];
}

function patternRows(iteration: IterationRecord): string[] {
  return (iteration.diagnosis?.patterns ?? []).map((pattern) => {
    const examples = pattern.examples.map((example) => codeSpan(example.taskId, 60)).join(", ");
    return `| ${cell(pattern.name, 80)} | ${patternStanding(pattern)} | ${pattern.support.tasks} / ${pattern.support.categories} | ${cell(pattern.support.categoryNames.join(", "), 120)} | ${examples} | ${cell(patternReasons(pattern), 240)} |`;
  });
}

/**
 * Patterns found per iteration: support, categories, example task ids, and their standing
 * (systematic, model-specific, insufficient support, unknown task) with the reasons.
 */
export function patternsSection(result: EvolveResult): string {
  const parts = ["## Failure patterns"];
  const withPatterns = result.iterations.filter(
    (iteration) => (iteration.diagnosis?.patterns.length ?? 0) > 0,
  );
  if (withPatterns.length === 0)
    parts.push("", "No cross-instance diagnosis was run (or no failure was found).");
  for (const iteration of withPatterns) {
    parts.push(
      "",
      `### ${recordTitle(iteration)}`,
      "",
      "| Pattern | Kind | Support (tasks / categories) | Categories | Examples | Reasons |",
      "|---|---|---|---|---|---|",
      ...patternRows(iteration),
    );
    for (const pattern of iteration.diagnosis?.patterns ?? []) {
      if (pattern.description)
        parts.push("", `- **${cell(pattern.name, 80)}**: ${cell(pattern.description, 500)}`);
    }
  }
  return parts.join("\n");
}

/** The roles' reasoning per iteration: diagnoses, skeptic objections, the HMS, and the verdict. */
export function reasoningSection(
  result: EvolveResult,
  options: { maxRoleChars?: number } = {},
): string {
  const parts = ["## Refinement"];
  // The roles name patterns by id; a reader knows them by name.
  const names = patternNameMap(result);
  const named = (text: string) => namePatternIds(text, names);
  for (const iteration of result.iterations) {
    parts.push(
      "",
      `### ${recordTitle(iteration)}: ${iteration.verdict}`,
      "",
      cell(iteration.reason, 600),
    );
    const refinement = iteration.refinement;
    if (!refinement) continue;
    parts.push(
      "",
      `**HMS** (${plural(refinement.rounds.length, "round")}, ${refinement.outcome}): ${cell(named(refinementSummary(refinement)), 1500)}`,
    );
    for (const turn of roleTurns(refinement)) {
      parts.push(
        "",
        `<details><summary>${cell(turn.role, 40)} (round ${turn.round})</summary>`,
        "",
        fenced(named(compactJson(turn.output, options.maxRoleChars ?? 1200)), "json"),
        "",
        "</details>",
      );
    }
    if (iteration.applied.length > 0) {
      parts.push(
        "",
        "Edits:",
        ...iteration.applied.map(
          (planned) =>
            `- \`${planned.module}\` ${cell(compactJson(planned.edit, 300), 300)} — ${cell(named(planned.rationale), 300)}`,
        ),
      );
    }
    if (iteration.validation.length > 0)
      parts.push("", "Validation:", "", ...stageMarkdownLines(iteration.validation, cell));
  }
  return parts.join("\n");
}

/**
 * Every edit the Editor left out of a proposal (its reply unusable, invalid after the repairs,
 * or refused for undoing an earlier edit), with the iteration and the 1-based HMS change.
 */
export function droppedEditRows(result: EvolveResult) {
  return result.iterations.flatMap((iteration) =>
    (iteration.refinement?.droppedEdits ?? []).map((dropped) => ({
      iteration: recordKey(iteration),
      stage: dropped.stage,
      change: dropped.change === null ? "—" : String(dropped.change + 1),
      reason: dropped.reason,
      edit: dropped.edit,
    })),
  );
}

/** Edits the Editor left out or the guards refused, and proposals the loop rejected. */
export function rejectionsSection(result: EvolveResult): string {
  const guard = result.iterations.flatMap((iteration) =>
    iteration.guardRejections.map((rejection) => ({ iteration: recordKey(iteration), rejection })),
  );
  const parts = ["## Rejections", ""];
  const dropped = droppedEditRows(result);
  if (dropped.length > 0) {
    parts.push(
      "Edits the Editor left out:",
      "",
      "| Iteration | Stage | Change | Reason | Edit |",
      "|---|---|---|---|---|",
      ...dropped.map(
        (row) =>
          `| ${row.iteration} | ${row.stage} | ${row.change} | ${cell(row.reason, 300)} | ${row.edit === null ? "—" : cell(compactJson(row.edit, 160), 160)} |`,
      ),
      "",
    );
  }
  if (guard.length === 0) parts.push("No edit was refused by the guards.");
  else {
    parts.push("| Iteration | Guard | Reason | Edit |", "|---|---|---|---|");
    for (const { iteration, rejection } of guard) {
      parts.push(
        `| ${iteration} | ${rejection.guard} | ${cell(rejection.reason, 200)} | ${cell(compactJson(rejection.edit.edit, 160), 160)} |`,
      );
    }
  }
  if (result.rejectedProposals.length > 0) {
    parts.push("", "Rejected proposals (remembered and shown to later refinement):", "");
    const names = patternNameMap(result);
    for (const proposal of result.rejectedProposals)
      parts.push(
        `- ${cell(namePatternIds(proposal.summary, names), 240)} — ${cell(proposal.reason, 240)}`,
      );
  }
  return parts.join("\n");
}

/** The harness diff as a patch (clipped). */
export function diffSection(result: EvolveResult, maxChars = 20_000): string {
  if (result.harness.patch.trim() === "")
    return "## Harness diff\n\nThe final harness equals the seed harness.";
  const files = result.harness.changedFiles.map(
    (file) => `- \`${cell(file.path, 120)}\` +${file.added} −${file.removed}`,
  );
  return [
    "## Harness diff",
    "",
    ...files,
    "",
    fenced(clip(result.harness.patch, maxChars), "diff"),
  ].join("\n");
}
