import { z } from "zod";
import type { ScorerSpec, Task } from "../config/task-schema.js";
import { guardText, stripInvisible } from "../safety/guard-text.js";
import { countToken, labelKey } from "./content-guards.js";
import { singleTaskPhrases } from "./item-phrases.js";

/**
 * Why an expected answer is a label word rather than a leak:
 * - `choice`: one of the choices of the configured `choice` scorer (ecdysis.yml, or a train
 *   task's own scorer);
 * - `common-answer`: the expected answer of many train tasks (see `labelMinTasks`);
 * - `in-inputs`: a word of the input of a train task that does not expect it;
 * - `one-task`: not an answer but a name only one train input carries (`singleTaskPhrases`):
 *   an edit that writes it reads as a hint for that task. Never exempts anything from the
 *   leak guard.
 * Every reason rests on what the refinement may see (the config and the train split), so a
 * string that only the held-out split answers is never a label word, however often.
 */
export const labelReasonSchema = z.enum(["choice", "common-answer", "in-inputs", "one-task"]);
export type LabelReason = z.infer<typeof labelReasonSchema>;

/** An expected answer an edit may write (flagged for the reviewer), with why. */
export const labelWordSchema = z.object({ text: z.string().min(1), why: labelReasonSchema });
export type LabelWord = z.infer<typeof labelWordSchema>;

/** Least number of train tasks whose answer a string must be to count as a common answer. */
export const labelMinTasks = 3;
/** Least share of the train tasks whose answer a string must be to count as a common answer. */
export const labelMinShare = 0.05;

/** Renders an expected value as the strings an answer leak would contain. */
export function expectedAnswerStrings(expected: unknown): string[] {
  if (expected === null || expected === undefined) return [];
  if (typeof expected === "string") return [expected];
  if (typeof expected === "number" || typeof expected === "boolean") return [String(expected)];
  if (Array.isArray(expected)) return expected.flatMap(expectedAnswerStrings);
  return [JSON.stringify(expected)];
}

/**
 * The expected answers (of train and held-out tasks) that are label words, each with its reason
 * (first that applies: choice, common answer, word of the inputs). What is not returned stays a
 * forbidden answer. Held-out tasks contribute only the strings to classify: their inputs, their
 * own scorers and their answer counts are never evidence, so the seal holds.
 */
export function labelWords(input: {
  train: Task[];
  heldout: Task[];
  /** The config's default scorer (`tasks.scorer`). */
  scorer?: ScorerSpec;
  minTasks?: number;
}): LabelWord[] {
  const { train } = input;
  const choices = new Set(
    [input.scorer, ...train.map((task) => task.scorer)].flatMap((scorer) =>
      scorer?.kind === "choice" ? scorer.choices.map(labelKey) : [],
    ),
  );
  const answersOf = train.map(
    (task) => new Set(expectedAnswerStrings(task.expected).map(labelKey)),
  );
  const answerCounts = new Map<string, number>();
  for (const answers of answersOf)
    for (const key of answers) answerCounts.set(key, (answerCounts.get(key) ?? 0) + 1);
  const minTasks = Math.max(
    input.minTasks ?? labelMinTasks,
    Math.ceil(train.length * labelMinShare),
  );
  const inputs = train.map((task) => labelKey(task.input));
  // The same whole-token match the leak guard uses, after a cheap substring test.
  const inOtherInput = (text: string, key: string) =>
    inputs.some(
      (taskInput, index) =>
        taskInput.includes(key) && !answersOf[index]?.has(key) && countToken(taskInput, text) > 0,
    );
  const found = new Map<string, LabelWord>();
  for (const task of [...train, ...input.heldout]) {
    for (const answer of expectedAnswerStrings(task.expected)) {
      const text = guardText(answer).trim();
      const key = labelKey(text);
      // Shown as written (NFKC, invisible characters removed); compared folded.
      const shown = stripInvisible(answer.normalize("NFKC")).trim();
      if (key === "" || found.has(key)) continue;
      const why: LabelReason | null = choices.has(key)
        ? "choice"
        : (answerCounts.get(key) ?? 0) >= minTasks
          ? "common-answer"
          : inOtherInput(text, key)
            ? "in-inputs"
            : null;
      if (why) found.set(key, { text: shown, why });
    }
  }
  const answers = new Set(
    [...train, ...input.heldout].flatMap((task) =>
      expectedAnswerStrings(task.expected).map(labelKey),
    ),
  );
  for (const text of singleTaskPhrases(train, answers))
    if (!found.has(labelKey(text))) found.set(labelKey(text), { text, why: "one-task" });
  return [...found.values()];
}
