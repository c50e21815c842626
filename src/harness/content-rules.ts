import { type InputIndex, indexInputs, rareCap } from "../safety/near-duplicates.js";
import { contentTokens, normalTokens } from "../safety/normal-form.js";
import { SecretRedactor } from "../safety/secrets.js";
import { wordCasing } from "../safety/text-features.js";
import { type AnswerIndex, answerIndex, labelKey } from "./answer-index.js";
import type { GuardContext } from "./guard-context.js";
import type { FileScan } from "./harness-scan.js";
import { leakNgramWords, ngramHashes } from "./harness-scan.js";
import type { LabelWord } from "./label-words.js";

/** What the content guards forbid, prepared once per guard context (see `contentRules`). */
export interface ContentRules {
  /** Expected answers that are not label words; `small` ones are refused only in context. */
  answers: AnswerIndex;
  /** Label words that can be checked (not small): allowed, flagged. Ids index `labelWords`. */
  labels: AnswerIndex;
  labelWords: LabelWord[];
  /** Sorted hashes of every 8-gram of the task inputs. */
  grams: Float64Array;
  /** The task inputs, for near copies and for the context of small answers. */
  inputs: InputIndex;
  /** Task index (in `inputs`) → ids of its small answers in `answers`. */
  answersOf: Map<number, number[]>;
  /** Per file of the seed harness, its lines' normal-form keys: never evidence of a copy. */
  baseline?: Map<string, Set<string>>;
  secrets: SecretRedactor;
  /** Scans of file texts already read. */
  scans: Map<string, FileScan>;
}

const prepared = new WeakMap<GuardContext, ContentRules>();

/**
 * Prepares a guard context's forbidden content once (remembered per context object, so the
 * many `applyEdits` calls of a run index the tasks once): answers and label words in the
 * normal form, the inputs' 8-grams and near-copy index, the seed's lines, the secrets.
 */
export function contentRules(guard: GuardContext): ContentRules {
  const known = prepared.get(guard);
  if (known) return known;
  const rules = buildRules(guard);
  prepared.set(guard, rules);
  return rules;
}

function buildRules(guard: GuardContext): ContentRules {
  const tasks = guard.tasks ?? [];
  const inputs = [...new Set([...tasks.map((task) => task.input), ...guard.forbiddenInputs])];
  const exempt = new Set(
    (guard.labelWords ?? [])
      .filter((label) => label.why !== "one-task")
      .map((label) => labelKey(label.text)),
  );
  const answers = answerIndex(
    [
      ...guard.forbiddenStrings.map((text) => ({ text, sealed: false })),
      ...tasks.flatMap((task) => task.answers.map((text) => ({ text, sealed: task.heldout }))),
    ].filter((answer) => !exempt.has(labelKey(answer.text))),
  );
  // A label word too small to check anywhere is not flagged either (as before the context check).
  const labelWords = (guard.labelWords ?? []).filter(
    (label) => answerIndex([{ text: label.text, sealed: false }]).answers[0]?.small === false,
  );
  return {
    answers,
    labels: answerIndex(labelWords.map((label) => ({ text: label.text, sealed: false }))),
    labelWords,
    grams: sortedGrams(inputs),
    inputs: indexInputs(inputs, { dropShared: true }),
    answersOf: smallAnswersOf(tasks, answers),
    baseline: guard.seedFiles
      ? new Map(Object.entries(guard.seedFiles).map(([path, text]) => [path, lineKeysOf(text)]))
      : undefined,
    secrets: new SecretRedactor(guard.secretValues ?? []),
    scans: new Map(),
  };
}

/** Task index → ids of its small answers (the tasks come first in the inputs, in order). */
function smallAnswersOf(
  tasks: NonNullable<GuardContext["tasks"]>,
  answers: AnswerIndex,
): Map<number, number[]> {
  const idByKey = new Map(
    answers.answers.map((answer, id) => [`${answer.kind}:${answer.key}`, id]),
  );
  const firstIndex = new Map<string, number>();
  for (const task of tasks)
    if (!firstIndex.has(task.input)) firstIndex.set(task.input, firstIndex.size);
  const result = new Map<number, number[]>();
  for (const task of tasks) {
    const ids = task.answers
      .map((text) => idByKey.get(labelKey(text)))
      .filter((id): id is number => id !== undefined && answers.answers[id].small);
    const at = firstIndex.get(task.input);
    if (ids.length > 0 && at !== undefined) result.set(at, [...(result.get(at) ?? []), ...ids]);
  }
  return result;
}

/**
 * The 8-gram hashes of the task inputs, sorted, without the template's: a run with no specific
 * word (a number or a name in at most `rareCap` inputs, as the near-copy index reads them) names
 * no task — "Using the registry, what is the employer of" — and a rule that quotes it is about
 * the task family, not a copy of a task.
 */
function sortedGrams(inputs: readonly string[]): Float64Array {
  const keys = inputs.map((input) => contentTokens(normalTokens(input)).map((token) => token.key));
  const frequency = new Map<string, number>();
  for (const words of keys)
    for (const word of new Set(words)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const cap = rareCap(inputs.length);
  const { named, lower } = wordCasing(inputs);
  const specific = (word: string) =>
    (frequency.get(word) ?? 0) <= cap &&
    (/^\d/.test(word) || (named.has(word) && !lower.has(word)));
  const hashes: number[] = [];
  for (const words of keys) {
    const rare = words.map(specific);
    ngramHashes(words).forEach((hash, at) => {
      if (rare.slice(at, at + leakNgramWords).includes(true)) hashes.push(hash);
    });
  }
  return Float64Array.from(hashes).sort();
}

/** The normal-form keys of every non-empty line of `text`. */
function lineKeysOf(text: string): Set<string> {
  const lines = new Map<number, string[]>();
  for (const token of contentTokens(normalTokens(text))) {
    const line = lines.get(token.line);
    if (line) line.push(token.key);
    else lines.set(token.line, [token.key]);
  }
  return new Set([...lines.values()].map((line) => line.join(" ")));
}
