/**
 * Normalises an answer for exact comparison: trims, folds case, collapses whitespace, strips
 * surrounding Markdown bold/italics/code marks and quotes, and a trailing period.
 */
export function normaliseAnswer(text: string): string {
  let value = text.normalize("NFKC").replace(/\s+/g, " ").trim();
  for (let pass = 0; pass < 4; pass += 1) {
    const before = value;
    value = value
      .replace(/^(\*\*|__|\*|_|`)(.*)\1$/s, "$2")
      .replace(/^(["'“‘«])(.*)(["'”’»])$/s, "$2")
      .replace(/\.+$/, "")
      .trim();
    if (value === before) break;
  }
  return value.toLowerCase();
}
