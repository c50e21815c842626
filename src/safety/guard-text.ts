/**
 * The one normalisation every content guard compares on. Text that renders alike must compare
 * alike: NFKC folds fullwidth forms, ligatures and compatibility characters (`Ｐａｒｉｓ` →
 * `Paris`, `ｓｋ－` → `sk-`), and the characters that render as nothing are removed, so an
 * answer or key with a zero-width space, a bidi override or a Unicode tag character inside is
 * the answer or key itself.
 */

/**
 * Characters that render as nothing (or only reorder what is around them): soft hyphen,
 * combining grapheme joiner, Arabic letter mark, Hangul fillers, Khmer inherent vowels, Mongolian
 * vowel separator and free variation selectors, zero-width space/joiners and direction marks,
 * bidi embeddings/overrides/isolates, word joiner and invisible operators, variation selectors,
 * the BOM, the Unicode tag block and the supplementary variation selectors.
 */
export const invisibleCharacterPattern =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;

/** `text` with the invisible characters removed (nothing else changed). */
export function stripInvisible(text: string): string {
  return text.replace(invisibleCharacterPattern, "");
}

/**
 * `text` as the content guards read it: invisible characters removed, NFKC-normalised, and the
 * invisible characters that NFKC itself may produce removed again. Case is kept (credential
 * shapes are case-sensitive); the comparisons that ignore case fold it themselves.
 */
export function guardText(text: string): string {
  return stripInvisible(stripInvisible(text).normalize("NFKC"));
}

/**
 * `text` safe to print in an error message: every invisible character, control character and
 * line/paragraph separator is shown as a `\u{…}` escape, so what a reader sees is what is there.
 */
export function escapeInvisible(text: string): string {
  return text.replace(
    /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]|[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu,
    (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`,
  );
}

/**
 * `text` as two task texts are compared for identity: guard-normalised, case-folded, every run
 * of whitespace one space, trimmed. Two inputs that differ only in case, spacing, fullwidth
 * forms or invisible characters are the same input.
 */
export function comparableText(text: string): string {
  return guardText(text).toLowerCase().replace(/\s+/g, " ").trim();
}
