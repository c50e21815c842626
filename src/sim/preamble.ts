import type { Rng } from "./draw.js";

const sentences = [
  "The registry clerks keep their ledgers in the east wing of the archive.",
  "Most entries were copied by hand from older folios and checked twice.",
  "Some folios are stained by water from a leaking roof in an earlier winter.",
  "Visitors must sign the register before reading any ledger.",
  "The archive opens at dawn and closes when the bell in the square rings.",
  "Older entries use a looser spelling of place names than newer ones.",
  "A committee meets each season to decide which ledgers to rebind.",
  "Clerks are reminded to return every folio to its shelf after use.",
  "The reading room is quiet, and lamps are lit only after sunset.",
  "Requests for copies are answered in the order they arrive.",
];

/** Background filler of at least `minChars` characters (no digits, no names): context for context-loss tasks. */
export function preamble(rng: Rng, minChars: number): string {
  const parts = ["Background notes for this request:"];
  let length = parts[0].length;
  while (length < minChars) {
    const sentence = rng.pick(sentences);
    parts.push(sentence);
    length += sentence.length + 1;
  }
  return parts.join(" ");
}
