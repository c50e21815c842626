import { contentTokens, type NormalToken, normalText, normalTokens } from "./normal-form.js";

/**
 * The word shingles near-duplicate checks compare: every word of a text (normal form, see
 * `normalTokens`) and every pair of words at most two apart (`a b`, `a _ c`), hashed to
 * numbers. Pairs two apart survive a word dropped or replaced between them; single words
 * survive clauses swapped. Hashes keep the indexes small: 52 bits, so two different shingles
 * of one run share a hash with a chance below 10⁻⁹.
 */

/** Words two apart at most make a pair. */
export const pairGap = 2;

/** A 52-bit hash of `text` (two FNV-1a passes with different offsets), exact as a JS number. */
export function featureHash(text: string): number {
  let high = 0x811c9dc5;
  let low = 0x01000193;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    high = Math.imul(high ^ code, 0x01000193) >>> 0;
    low = Math.imul(low ^ code, 0x01000193 ^ 0x5bd1e995) >>> 0;
  }
  return high * 0x100000 + (low & 0xfffff);
}

/** The shingle keys of a run of token keys: each word, and each pair at most `pairGap` apart. */
export function shingleKeys(keys: readonly string[]): string[] {
  const shingles: string[] = [...keys];
  for (let index = 0; index < keys.length; index += 1)
    for (let gap = 1; gap <= pairGap && index + gap < keys.length; gap += 1)
      shingles.push(`${keys[index]} ${keys[index + gap]}`);
  return shingles;
}

/** The hashed shingles of a run of tokens (operators dropped). */
export function tokenFeatures(tokens: readonly NormalToken[]): Set<number> {
  return new Set(shingleKeys(contentTokens(tokens).map((token) => token.key)).map(featureHash));
}

const sentenceMemo = new Map<string, string[][]>();

/**
 * A text's sentences (split after `.`, `?`, `!`, `:` or `;` and at line breaks), each as its
 * token keys. Remembered for the last few thousand texts: the same task inputs are indexed
 * again by every check of a run's splits and guards.
 */
export function sentenceKeys(text: string): string[][] {
  const known = sentenceMemo.get(text);
  if (known) return known;
  const keys = normalText(text)
    .split(/(?<=[.?!:;])\s+|\n+/)
    .map((sentence) => contentTokens(normalTokens(sentence)).map((token) => token.key))
    .filter((sentence) => sentence.length > 0);
  if (sentenceMemo.size >= 8192) sentenceMemo.clear();
  sentenceMemo.set(text, keys);
  return keys;
}

/** Words that start a sentence without being a name (a question's or an instruction's first word). */
export const sentenceStarters: ReadonlySet<string> = new Set(
  (
    "a an and are at but can could convert compute calculate did do does find for from give given " +
    "how if in is it its list name of on or please say should tell that the there these this " +
    "those to was were what when where which who whom why will would"
  ).split(" "),
);

/**
 * Function words: articles, prepositions, conjunctions, pronouns, auxiliaries, question words.
 * Beside a task's number or name they say nothing of which task it is (`and 24`, `of 30`), so
 * they anchor no specific word of a near copy (`Signature.specificWords`).
 */
export const functionWords: ReadonlySet<string> = new Set(
  (
    "a about after an and any are as at be been before between but by can could did do does " +
    "each every for from had has have he her his how i if in into is it its many me much my of " +
    "on or our per she should so some than that the their them then there these they this " +
    "those through to under up upon was we were what when where which while who whom whose " +
    "why will with would you your"
  ).split(" "),
);

/**
 * Reads how words are written across `texts`: `named` holds the words written capitalised
 * somewhere other than a sentence's start (or at a start, when no common starter), `lower`
 * those written in lower case somewhere. A word in `named` and never in `lower` reads as a
 * name (`Rinmark`, `Brimark`); `How` or `Task` do not.
 */
export function wordCasing(texts: Iterable<string>): { named: Set<string>; lower: Set<string> } {
  const named = new Set<string>();
  const lower = new Set<string>();
  for (const text of texts) {
    for (const match of normalText(text).matchAll(/([.?!:]\s*|^\s*|\n\s*)?([\p{L}\p{M}]+)/gu)) {
      const word = match[2];
      const key = word.toLowerCase();
      if (!/^\p{Lu}/u.test(word)) lower.add(key);
      else if (match[1] === undefined || !sentenceStarters.has(key)) named.add(key);
    }
  }
  return { named, lower };
}
