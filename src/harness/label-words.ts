import { z } from "zod";
import type { ScorerSpec, Task } from "../config/task-schema.js";
import { stripInvisible } from "../safety/guard-text.js";
import { contentTokens, normalTokens } from "../safety/normal-form.js";
import { runSteps, type Steps, stepSize } from "../safety/steps.js";
import { answerIndex, findAnswers, labelKey } from "./answer-index.js";
import { singleTaskPhrases } from "./item-phrases.js";

/**
 * Why an expected answer is a label word rather than a leak:
 * - `choice`: one of the choices of the configured `choice` scorer (ecdysis.yml, or a train
 *   task's own scorer);
 * - `common-answer`: the expected answer of many train tasks (see `labelMinTasks`);
 * - `in-inputs`: words (not a number) found in the input of a train task that does not expect them;
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
const labelMinTasks = 3;
/** Least share of the train tasks whose answer a string must be to count as a common answer. */
const labelMinShare = 0.05;

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
 * own scorers and their answer counts are never evidence, so the seal holds. Answers compare in
 * the normal form (`Yes`/`yes`, `New-York`/`new york`); the in-inputs test reads each train
 * input once against an index of all answers, so it costs the inputs' length, not inputs ×
 * answers.
 */
export function labelWords(input: {
  train: Task[];
  heldout: Task[];
  /** The config's default scorer (`tasks.scorer`). */
  scorer?: ScorerSpec;
  minTasks?: number;
}): LabelWord[] {
  return runSteps(labelWordSteps(input));
}

/** `labelWords` as steps (`runStepsYielding` keeps the event loop turning meanwhile). */
export function* labelWordSteps(input: Parameters<typeof labelWords>[0]): Steps<LabelWord[]> {
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
  const all = [...train, ...input.heldout];
  const inInputs = yield* answersInOtherInputs(train, all, answersOf);
  const found = new Map<string, LabelWord>();
  for (const [at, task] of all.entries()) {
    if (at % stepSize === stepSize - 1) yield;
    for (const answer of expectedAnswerStrings(task.expected)) {
      const key = labelKey(answer);
      if (key === "" || found.has(key)) continue;
      // Shown as written (NFKC, invisible characters removed); compared in the normal form.
      const shown = stripInvisible(answer.normalize("NFKC")).trim();
      const why: LabelReason | null = choices.has(key)
        ? "choice"
        : (answerCounts.get(key) ?? 0) >= minTasks
          ? "common-answer"
          : inInputs.has(key)
            ? "in-inputs"
            : null;
      if (why) found.set(key, { text: shown, why });
    }
  }
  const answers = new Set(
    all.flatMap((task) => expectedAnswerStrings(task.expected).map(labelKey)),
  );
  for (const text of singleTaskPhrases(train, answers))
    if (!found.has(labelKey(text))) found.set(labelKey(text), { text, why: "one-task" });
  return [...found.values()];
}

/**
 * The keys of the word answers (of `all` tasks) found in the input of a train task that does
 * not expect them, found as the content guards find them (`findAnswers`). Numbers are left
 * out: a value in another task's input is a coincidence, not a word of the task's language.
 */
function* answersInOtherInputs(
  train: Task[],
  all: Task[],
  answersOf: Set<string>[],
): Steps<Set<string>> {
  const index = answerIndex(
    all.flatMap((task) =>
      expectedAnswerStrings(task.expected).map((text) => ({ text, sealed: false })),
    ),
  );
  const keys = index.answers.map((answer) => `${answer.kind}:${answer.key}`);
  const found = new Set<string>();
  for (const [at, task] of train.entries()) {
    if (at % stepSize === stepSize - 1) yield;
    const tokens = contentTokens(normalTokens(task.input));
    for (const hit of findAnswers({ index, tokens }))
      if (index.answers[hit.id].kind === "words" && !answersOf[at]?.has(keys[hit.id]))
        found.add(keys[hit.id]);
  }
  return found;
}
