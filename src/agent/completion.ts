/**
 * Extracts the final answer with the harness's `completion.answer_pattern`: the last match in
 * the text, its first capture group (or the whole match), trimmed; null when nothing matches
 * or the answer is empty.
 */
export function extractAnswer(text: string | null, pattern: string): string | null {
  if (!text) return null;
  const regex = new RegExp(pattern, "gm");
  // matchAll iterates a copy of the regex and steps past empty matches by itself.
  let answer: string | null = null;
  for (const match of text.matchAll(regex)) {
    const value = (match[1] ?? match[0]).trim();
    if (value !== "") answer = value;
  }
  return answer;
}
