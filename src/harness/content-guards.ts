/** Default cap on a harness file's size after an edit. */
export const defaultMaxFileBytes = 64 * 1024;
/** Default cap on the new text one edit brings. */
export const defaultMaxEditBytes = 8 * 1024;
/** Most distinct files one call of applyEdits may change. */
export const maxEditedFiles = 20;
/** Length of the word n-grams the input-leak check compares. */
export const leakNgramWords = 8;

export { findSecret } from "../safety/secrets.js";

/** Forbidden strings too short or too common to check without false alarms. */
export function isCheckableAnswer(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length < 3) return false;
  if (/^[+-]?\d+$/.test(trimmed) && Math.abs(Number(trimmed)) < 100) return false;
  return true;
}

/** Occurrences of `needle` in `text` as a whole token (not inside a longer word or number), case-insensitive. */
export function countToken(text: string, needle: string): number {
  const escaped = needle
    .trim()
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\s+/g, "\\s+");
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "giu");
  return text.match(pattern)?.length ?? 0;
}

/** Lower-cased words with punctuation trimmed from their edges. */
export function normalisedWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((word) => word.length > 0);
}

/** The set of `leakNgramWords`-word n-grams of the given texts, case/space/punctuation-normalised. */
export function ngramSet(texts: string[]): Set<string> {
  const grams = new Set<string>();
  for (const text of texts) {
    const words = normalisedWords(text);
    for (let index = 0; index + leakNgramWords <= words.length; index += 1) {
      grams.add(words.slice(index, index + leakNgramWords).join(" "));
    }
  }
  return grams;
}

/** The first n-gram of `text` found in `grams`, or null. */
export function sharedNgram(text: string, grams: Set<string>): string | null {
  if (grams.size === 0) return null;
  const words = normalisedWords(text);
  for (let index = 0; index + leakNgramWords <= words.length; index += 1) {
    const gram = words.slice(index, index + leakNgramWords).join(" ");
    if (grams.has(gram)) return gram;
  }
  return null;
}
