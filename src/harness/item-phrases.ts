import type { Task } from "../config/task-schema.js";
import { guardText } from "../safety/guard-text.js";
import { contentTokens, normalTokens } from "../safety/normal-form.js";
import { sentenceStarters } from "../safety/text-features.js";
import { answerIndex, findAnswers, labelKey } from "./answer-index.js";

/** A word that starts with a capital letter (a name's word: `Rinmark`, `O'Neill`, `Saint-Malo`). */
const capitalised = /^\p{Lu}[\p{L}\p{M}\p{N}'’-]*$/u;

/**
 * Names that only one train task's input carries: every two capitalised words in a row (`Rinmark
 * Faolla`, `Harbour Street`) found in exactly one train input. An edit that writes one names a
 * single item — "When a question mentions Rinmark Faolla, re-read it" is a hint for that task,
 * not a harness fix — so the guards flag it for the reviewer (it is allowed: a name can be a
 * legitimate example). A sentence's first word counts only when it is not a common sentence
 * starter and the inputs never write it in lower case (`Is Vantor` is no name). Phrases that
 * are an expected answer (`skip`, keys by `labelKey`) are left out: those are the leak guard's. Held-out inputs are
 * never read.
 */
export function singleTaskPhrases(train: Task[], skip: ReadonlySet<string>): string[] {
  const texts = train.map((task) => ({ id: task.id, words: guardText(task.input).split(/\s+/) }));
  const lower = new Set(
    texts.flatMap(({ words }) => words.filter((word) => /^\p{Ll}/u.test(word)).map(bare)),
  );
  const seen = new Map<string, { text: string; tasks: Set<string> }>();
  for (const { id, words } of texts) {
    for (let index = 0; index + 1 < words.length; index++) {
      const first = words[index];
      const second = bare(words[index + 1]);
      if (!capitalised.test(first) || !capitalised.test(second)) continue;
      const starts = index === 0 || /[.!?:]$/.test(words[index - 1]);
      const plain = first.toLowerCase();
      if (starts && (sentenceStarters.has(plain) || lower.has(plain))) continue;
      const text = `${first} ${second}`;
      const key = labelKey(text);
      const entry = seen.get(key) ?? { text, tasks: new Set<string>() };
      entry.tasks.add(id);
      seen.set(key, entry);
    }
  }
  return [...seen.entries()]
    .filter(([key, entry]) => entry.tasks.size === 1 && !skip.has(key))
    .map(([, entry]) => entry.text);
}

/** A word without the punctuation that ends it. */
function bare(word: string): string {
  return word.replace(/[^\p{L}\p{M}\p{N}]+$/u, "");
}

/**
 * The tasks whose input carries one of `phrases` (say, the `one-task` label words an edit
 * wrote), found as the content guards find words: in the normal form, among the content tokens.
 * An edit naming one task's item is judged without that task: its fix there is no evidence.
 */
export function tasksNaming(phrases: readonly string[], tasks: readonly Task[]): string[] {
  if (phrases.length === 0) return [];
  const index = answerIndex(phrases.map((text) => ({ text, sealed: false })));
  return tasks
    .filter(
      (task) => findAnswers({ index, tokens: contentTokens(normalTokens(task.input)) }).length > 0,
    )
    .map((task) => task.id);
}
