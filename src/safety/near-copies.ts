import type { InputIndex, Signature } from "./near-duplicates.js";

/**
 * Near copies of task inputs in a text (the content guards' reworded-input check): which
 * inputs of an index (`indexInputs`) a text's shingles carry most of — their wording, their
 * specific shingles, and two of their specific words in their own places.
 */

/** Thresholds of `nearCopies`, measured on the bundled worlds (src/harness/README.md, docs/guards.md). */
const nearCopyThresholds = {
  /** Least idf-weighted share of a task's wording (its words that are not specific). */
  all: 0.45,
  /** Least share of its specific shingles. */
  specific: 0.1,
  /**
   * Least distinct specific words the text carries — its names' words anywhere, its rare
   * numbers anchored, beside a word they stand beside in the task that is no function word — of
   * a task with three or more; of a task with one or two, one. General rules about the task's family share
   * its wording and many small numbers ("Months have 31 days…", "a day has 24 hours" beside
   * "…spent 24 hours and 26 minutes…"), seldom two of them in the task's own places; a copy
   * keeps most of a task's names and numbers where they were, even with one word dropped or
   * replaced, its clauses swapped or its name left out.
   */
  words: 2,
} as const;

/**
 * How much of `signature` the shingle set `text` carries: weighted overall, of its specific
 * shingles, and how many of its specific words it carries anchored (beside a word they stand
 * beside in the input: `24 hours`, not a bare `24`).
 */
export function coverage(
  signature: Signature,
  text: ReadonlySet<number>,
): { all: number; specific: number; words: number } {
  let carried = 0;
  for (const [hash, weight] of signature.wording) if (text.has(hash)) carried += weight;
  let specific = 0;
  for (const hash of signature.specific) if (text.has(hash)) specific += 1;
  let words = 0;
  for (const anchors of signature.specificWords.values())
    if ([...anchors].some((pair) => text.has(pair))) words += 1;
  return {
    all: signature.wordingTotal > 0 ? carried / signature.wordingTotal : 0,
    specific: signature.specific.size > 0 ? specific / signature.specific.size : 0,
    words,
  };
}

/** The specific words a near copy of `signature` carries at least (`nearCopyThresholds.words`). */
function wordsNeeded(signature: Signature): number {
  const size = signature.specificWords.size;
  return size >= 3 ? nearCopyThresholds.words : Math.min(1, size);
}

/** The inputs a text whose shingles are `text` near-copies (`nearCopyThresholds`), in index order. */
export function nearCopies(index: InputIndex, text: ReadonlySet<number>): number[] {
  const candidates = new Set<number>();
  for (const hash of text) for (const task of index.postings.get(hash) ?? []) candidates.add(task);
  return [...candidates]
    .filter((task) => {
      const signature = index.signature(task);
      const found = coverage(signature, text);
      return (
        found.all >= nearCopyThresholds.all &&
        found.specific >= nearCopyThresholds.specific &&
        found.words >= wordsNeeded(signature)
      );
    })
    .sort((a, b) => a - b);
}
