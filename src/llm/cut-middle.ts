/** What stands where the middle of a text was cut. */
const cutMark = (chars: number) => `\n[… ${chars} characters cut to fit the model's context …]\n`;

/**
 * A text cut to at most `maxChars` characters by removing its middle (a third of what is kept
 * from the start, two thirds from the end), with a mark saying how much went: a long input's
 * opening and its closing question both survive. Texts that fit come back unchanged.
 */
export function cutMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const mark = cutMark(text.length);
  const keep = maxChars - mark.length;
  if (keep < 2) return text.slice(text.length - maxChars);
  const head = Math.floor(keep / 3);
  const tail = keep - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}${cutMark(cut)}${text.slice(text.length - tail)}`;
}
