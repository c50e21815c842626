import type { EvolveResult } from "../evolve/result-schema.js";
import type { LabelFlag, PlannedEdit } from "../harness/types.js";
import { cell, codeSpan, compactJson } from "./format.js";
import { recordKey } from "./validation-stages.js";

/** Why a word is a label, as a reviewer reads it. */
const reasons: Record<LabelFlag["words"][number]["why"], string> = {
  choice: "a choice of the scorer",
  "common-answer": "the answer of many train tasks",
  "in-inputs": "a word of the train inputs",
  "one-task": "a name only one train task's input carries: a hint for that task?",
};

/** Why a word is a label, in the reviewer's words. */
export function labelWhy(why: LabelFlag["words"][number]["why"]): string {
  return reasons[why];
}

/** One flagged edit of a run, with its iteration and whether the final harness carries it. */
export interface LabelFlagRow {
  /** The record's key (`2`, or `2.1` for a follow-up). */
  iteration: string;
  flag: LabelFlag;
  inFinal: boolean;
}

function sameEdit(a: PlannedEdit, b: PlannedEdit): boolean {
  return JSON.stringify(a.edit) === JSON.stringify(b.edit) && a.module === b.module;
}

/**
 * Every applied edit of a run that brought label words (expected answers that are labels, not
 * leaks: allowed by the leak guard and shown here), a repair round's included, each marked
 * with whether it is in the final harness (one of the accepted edits).
 */
export function labelFlagRows(result: EvolveResult): LabelFlagRow[] {
  const rows: LabelFlagRow[] = [];
  for (const iteration of result.iterations) {
    for (const flag of iteration.labelFlags ?? []) {
      const inFinal = result.acceptedEdits.some((edit) => sameEdit(edit, flag.edit));
      rows.push({ iteration: recordKey(iteration), flag, inFinal });
    }
  }
  return rows;
}

/**
 * "Label words for the reviewer": the edits that write an expected answer the leak guard let
 * through as a label word (`Answer with yes or no`), with the file, the words and why each is a
 * label. `finalOnly` (the PR body) lists only those the final harness carries. Empty string
 * when there are none.
 */
export function labelWordsSection(
  result: EvolveResult,
  options: { finalOnly?: boolean } = {},
): string {
  const rows = labelFlagRows(result).filter((row) => !options.finalOnly || row.inFinal);
  if (rows.length === 0) return "";
  const lines = [
    "## Label words for the reviewer",
    "",
    "These edits write words that are also expected answers, which the leak guard let through as label words (a choice of the scorer, the answer of many train tasks, or a word of the train inputs), or names that only one train task's input carries; check that they name the allowed labels and neither answer nor single out a task.",
    "",
    options.finalOnly
      ? "| Iteration | File | Words | Edit |"
      : "| Iteration | File | Words | In final harness | Edit |",
    options.finalOnly ? "|---|---|---|---|" : "|---|---|---|---|---|",
  ];
  for (const { iteration, flag, inFinal } of rows) {
    const words = flag.words
      .map((word) => `${codeSpan(word.text, 60)} (${reasons[word.why]})`)
      .join(", ");
    const edit = cell(compactJson(flag.edit.edit, 160), 160);
    const file = codeSpan(flag.file, 120);
    lines.push(
      options.finalOnly
        ? `| ${iteration} | ${file} | ${words} | ${edit} |`
        : `| ${iteration} | ${file} | ${words} | ${inFinal ? "yes" : "no"} | ${edit} |`,
    );
  }
  return lines.join("\n");
}
