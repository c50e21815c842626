/**
 * Extracts the final answer with the harness's `completion.answer_pattern`: the last match in
 * the text, its first capture group (or the whole match), cleaned of the Markdown marks real
 * models wrap answers in (see {@link cleanAnswer}); null when nothing matches or the answer is
 * empty.
 */
export function extractAnswer(text: string | null, pattern: string): string | null {
  if (!text) return null;
  const regex = new RegExp(pattern, "gm");
  // matchAll iterates a copy of the regex and steps past empty matches by itself.
  let answer: string | null = null;
  for (const match of text.matchAll(regex)) {
    const value = cleanAnswer(match[1] ?? match[0]);
    if (value !== "") answer = value;
  }
  return answer;
}

/**
 * Trims what surrounds an answer a model wrote in Markdown: the closing mark of a bold label
 * (`**Answer:** 42` captures `** 42`), emphasis or code ticks around the value, and a dangling
 * code tick at either end. Marks inside the value (`a*b`) are kept.
 */
function cleanAnswer(raw: string): string {
  let value = raw.trim();
  for (let pass = 0; pass < 4; pass += 1) {
    const before = value;
    value = value
      .replace(/^(\*\*|__|\*|_)\s+/, "")
      .replace(/^(\*\*|__|\*|_|`)(.+)\1$/s, "$2")
      .trim()
      .replace(/^`([^`]*)$/, "$1")
      .replace(/^([^`]*)`$/, "$1")
      .trim();
    if (value === before) break;
  }
  return value;
}
