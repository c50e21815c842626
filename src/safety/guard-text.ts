/**
 * The one normalisation every content guard compares on. Text that renders alike must compare
 * alike: NFKC folds fullwidth forms, ligatures and compatibility characters (`Ｐａｒｉｓ` →
 * `Paris`, `ｓｋ－` → `sk-`), and the characters that render as nothing are removed, so an
 * answer or key with a zero-width space, a bidi override or a Unicode tag character inside is
 * the answer or key itself. Letters of other scripts that look like Latin ones (Cyrillic `а`,
 * Greek `ο`, …) are folded to the Latin letter, so `Lisbon` spelled with a Cyrillic `і` is
 * `Lisbon`.
 */

/**
 * Code-point ranges of the characters that render as nothing (or only reorder what is around
 * them): soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul fillers, Khmer
 * inherent vowels, Mongolian vowel separator and free variation selectors, zero-width
 * space/joiners and direction marks, bidi embeddings/overrides/isolates, word joiner and
 * invisible operators, variation selectors, the BOM, the Unicode tag block and the
 * supplementary variation selectors.
 */
const invisibleRanges: readonly (readonly [number, number])[] = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
];

/** Control characters a message shows escaped (C0 but tab and line feed, DEL, C1, U+2028/9). */
const controlRanges: readonly (readonly [number, number])[] = [
  [0x00, 0x08],
  [0x0b, 0x1f],
  [0x7f, 0x9f],
  [0x2028, 0x2029],
];

/** A global, Unicode-aware character class over code-point ranges. */
function rangeClass(ranges: readonly (readonly [number, number])[]): RegExp {
  const hex = (point: number) => `\\u{${point.toString(16)}}`;
  const body = ranges.map(([low, high]) => (low === high ? hex(low) : `${hex(low)}-${hex(high)}`));
  return new RegExp(`[${body.join("")}]`, "gu");
}

/** Matches every invisible character (see `invisibleRanges`). */
const invisibleCharacterPattern = rangeClass(invisibleRanges);
const escapedPattern = rangeClass([...controlRanges, ...invisibleRanges]);

/** `text` with the invisible characters removed (nothing else changed). */
export function stripInvisible(text: string): string {
  return text.replace(invisibleCharacterPattern, "");
}

/**
 * Cyrillic, Greek and Armenian letters that render like a Latin letter, and that letter: the
 * single-letter Latin look-alikes of Unicode's confusables list (UTS #39) in those scripts,
 * plus the dotless i. A model reads `Тhеssаlоniki` as the city; the guards must too. Letters
 * that only resemble a Latin one in some fonts (Greek ε, Cyrillic в) are left alone.
 */
// biome-ignore format: a table, one script a few lines
const latinLookAlikes: Readonly<Record<string, string>> = {
  // Cyrillic
  а: "a", с: "c", ԁ: "d", е: "e", һ: "h", і: "i", ј: "j", ӏ: "l", о: "o", р: "p", ԛ: "q",
  ѕ: "s", ԝ: "w", х: "x", у: "y",
  А: "A", В: "B", С: "C", Е: "E", Н: "H", І: "I", Ј: "J", К: "K", М: "M", О: "O", Р: "P",
  Ԛ: "Q", Ѕ: "S", Т: "T", Ԝ: "W", Х: "X", У: "Y", Ү: "Y", Ӏ: "I",
  // Greek
  α: "a", ι: "i", κ: "k", ν: "v", ο: "o", ρ: "p", υ: "u", χ: "x", γ: "y",
  Α: "A", Β: "B", Ε: "E", Ζ: "Z", Η: "H", Ι: "I", Κ: "K", Μ: "M", Ν: "N", Ο: "O", Ρ: "P",
  Τ: "T", Υ: "Y", Χ: "X",
  // Armenian, and Latin's own dotless i
  օ: "o", ս: "u", ı: "i",
};
const lookAlikePattern = new RegExp(`[${Object.keys(latinLookAlikes).join("")}]`, "gu");

/** `text` with every Latin look-alike letter of another script replaced by the Latin letter. */
function foldLookAlikes(text: string): string {
  return text.replace(lookAlikePattern, (char) => latinLookAlikes[char] ?? char);
}

/**
 * `text` as the content guards read it: invisible characters removed, NFKC-normalised, the
 * invisible characters that NFKC itself may produce removed again, and Latin look-alikes of
 * other scripts folded to Latin. Case is kept (credential shapes are case-sensitive); the
 * comparisons that ignore case fold it themselves. For comparison only, never for display.
 */
export function guardText(text: string): string {
  return foldLookAlikes(stripInvisible(stripInvisible(text).normalize("NFKC")));
}

/**
 * `text` safe to print in an error message: every invisible character, control character and
 * line/paragraph separator is shown as a `\u{…}` escape, so what a reader sees is what is there.
 */
export function escapeInvisible(text: string): string {
  return text.replace(
    escapedPattern,
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
