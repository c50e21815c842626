import { contentTokens, type NormalToken, normalTokens } from "../safety/normal-form.js";
import type { DerivedNumber } from "../safety/number-words.js";

/**
 * Finds answers in a text in the normal form (`src/safety/normal-form.ts`), whatever the number
 * of answers: a number answer is looked up by value for every number of the text (`4,542`,
 * `4542.0`, `4542coins` are all 4542; the sign is ignored); any other answer by its words
 * joined without separators, against every run of consecutive words of the text (`Brimark
 * Works`, `Brimark-Works`, `brimark_works` and `BrimarkWorks` are all `brimarkworks`). Each
 * look-up is a hash probe, so a scan costs the text's length times the longest answer, never
 * the number of answers.
 */

/** One answer the index finds. */
export interface IndexedAnswer {
  /** The answer as given (trimmed). */
  text: string;
  /** A number's canonical value, or the joined word key. */
  key: string;
  kind: "number" | "words";
  /**
   * Too common to refuse anywhere (`isCommonAnswer`): an integer under 100 or a decimal of two digits, a unit or calendar
   * constant, under 3 characters, a weekday or month name. Refused only beside its task's name.
   */
  small: boolean;
  /** A held-out answer: also found spelled out or as one arithmetic step (`derivedNumbers`). */
  sealed: boolean;
}

/** Answers prepared for `countAnswers`. */
export interface AnswerIndex {
  answers: IndexedAnswer[];
  /** Canonical value → answers. */
  numbers: Map<string, number[]>;
  /** Joined word key → answers. */
  words: Map<string, number[]>;
  /** Lengths of the word keys up to `prefixLength`, and the longest of them. */
  lengths: Set<number>;
  longest: number;
  /** Word keys longer than `prefixLength`, by their first `prefixLength` characters. */
  long: Map<string, number[]>;
}

/** Word keys longer than this are found by their prefix, then checked whole (a JSON answer). */
const prefixLength = 96;

/** Least number (absolute, integer) and least key length refused anywhere; below, only in context. */
const smallNumberLimit = 100;
const smallKeyLength = 3;

/**
 * Numbers every general rule about units and the calendar writes (`1000 grams`, `365 days`,
 * `1440 minutes`): powers of ten and the calendar's and clock's own. As an answer they say
 * nothing of which task they answer, like a number under `smallNumberLimit`.
 */
const commonNumbers = new Set([
  ...[2, 3, 4, 5, 6, 7, 8, 9].map((power) => String(10 ** power)),
  "360",
  "365",
  "366",
  "1440",
  "3600",
  "86400",
]);
/** The weekday and month names (normal-form keys): the vocabulary of any date rule. */
const calendarWords = new Set(
  [
    "monday tuesday wednesday thursday friday saturday sunday",
    "january february march april may june july august september october november december",
  ]
    .join(" ")
    .split(" "),
);

/**
 * Whether an answer (its normal-form key) is too common to refuse anywhere, only beside its
 * task's name: an integer under 100 or a decimal of as few digits (0.5, 0.25, 7.5), a unit or
 * calendar constant (`commonNumbers`), a key under 3 characters, a weekday or month name. A
 * rule that lists the weekdays, says a kilogram is 1000 grams or half is 0.5 is general even
 * when some task's answer is Sunday, 1000 or 0.5.
 */
export function isCommonAnswer(found: { key: string; kind: "number" | "words" }): boolean {
  if (found.kind === "words")
    return found.key.length < smallKeyLength || calendarWords.has(found.key);
  if (/^\d+\.\d+$/.test(found.key))
    return found.key.replace(".", "").replace(/^0+/, "").length <= 2;
  if (!/^\d+$/.test(found.key)) return false;
  return Number(found.key) < smallNumberLimit || commonNumbers.has(found.key);
}

/** The normal-form key of an answer: its value when it is one number, else its words joined. */
export function answerKey(text: string): { key: string; kind: "number" | "words" } | null {
  const tokens = contentTokens(normalTokens(text));
  if (tokens.length === 0) return null;
  if (tokens.length === 1 && tokens[0].kind === "number")
    return { key: tokens[0].values[0], kind: "number" };
  return { key: tokens.map((token) => token.key).join(""), kind: "words" };
}

/** The key two answers or labels compare on: the normal form (`answerKey`), "" for none. */
export function labelKey(text: string): string {
  const found = answerKey(text);
  return found ? `${found.kind}:${found.key}` : "";
}

/** Indexes `answers` (duplicates by key keep the first; `sealed` if any copy is sealed). */
export function answerIndex(answers: readonly { text: string; sealed: boolean }[]): AnswerIndex {
  const index: AnswerIndex = {
    answers: [],
    numbers: new Map(),
    words: new Map(),
    lengths: new Set(),
    longest: 0,
    long: new Map(),
  };
  const byKey = new Map<string, number>();
  for (const { text, sealed } of answers) {
    const found = answerKey(text);
    if (!found) continue;
    const known = byKey.get(`${found.kind}:${found.key}`);
    if (known !== undefined) {
      index.answers[known].sealed ||= sealed;
      continue;
    }
    const small = isCommonAnswer(found);
    const id = index.answers.push({ text: text.trim(), ...found, small, sealed }) - 1;
    byKey.set(`${found.kind}:${found.key}`, id);
    const isLong = found.kind === "words" && found.key.length > prefixLength;
    const map = found.kind === "number" ? index.numbers : isLong ? index.long : index.words;
    const key = isLong ? found.key.slice(0, prefixLength) : found.key;
    map.set(key, [...(map.get(key) ?? []), id]);
    if (found.kind === "words" && !isLong) {
      index.lengths.add(found.key.length);
      index.longest = Math.max(index.longest, found.key.length);
    }
  }
  return index;
}

/** One place an answer was found: the answer's id and the token it starts at. */
export interface AnswerHit {
  id: number;
  /** Index in the content tokens. */
  at: number;
  line: number;
}

/**
 * Every place an answer of `index` occurs in `tokens` (content tokens of a text), in order: a
 * number answer at each number token that reads as its value; a word answer at each run of
 * consecutive tokens whose keys join to its key; a sealed number answer also at each number
 * the text states in words or by one arithmetic step (`derived`).
 */
export function findAnswers(input: {
  index: AnswerIndex;
  tokens: readonly NormalToken[];
  derived?: readonly DerivedNumber[];
}): AnswerHit[] {
  const { index, tokens } = input;
  const hits: AnswerHit[] = [];
  tokens.forEach((token, at) => {
    if (token.kind !== "number") return;
    const ids = new Set(token.values.flatMap((value) => index.numbers.get(value) ?? []));
    for (const id of ids) hits.push({ id, at, line: token.line });
  });
  for (const number of input.derived ?? [])
    for (const id of index.numbers.get(number.value) ?? [])
      if (index.answers[id].sealed) hits.push({ id, at: -1, line: number.line });
  if (index.words.size === 0 && index.long.size === 0) return hits;
  const reach = index.long.size > 0 ? prefixLength : index.longest;
  for (let start = 0; start < tokens.length; start += 1) {
    let joined = "";
    for (let end = start; end < tokens.length && joined.length <= reach; end += 1) {
      joined += tokens[end].key;
      for (const id of index.lengths.has(joined.length) ? (index.words.get(joined) ?? []) : [])
        hits.push({ id, at: start, line: tokens[start].line });
      if (joined.length >= prefixLength && joined.length - tokens[end].key.length < prefixLength)
        for (const id of longMatches({ index, tokens, start, end, joined }))
          hits.push({ id, at: start, line: tokens[start].line });
    }
  }
  return hits;
}

/** The long answers whose whole key the tokens from `start` spell, given `joined` up to `end`. */
function longMatches(input: {
  index: AnswerIndex;
  tokens: readonly NormalToken[];
  start: number;
  end: number;
  joined: string;
}): number[] {
  const { index, tokens } = input;
  return (index.long.get(input.joined.slice(0, prefixLength)) ?? []).filter((id) => {
    const { key } = index.answers[id];
    let joined = input.joined;
    for (let end = input.end + 1; joined.length < key.length && end < tokens.length; end += 1)
      joined += tokens[end].key;
    return joined === key;
  });
}
