import { runSteps, type Steps, stepSize } from "./steps.js";
import { featureHash, functionWords, pairGap, sentenceKeys, wordCasing } from "./text-features.js";

/**
 * Near-duplicate task inputs, found in near-linear time. Each input's *signature* is its word
 * shingles (`shingleKeys`), weighted by how rare their words are among all inputs (idf). Its
 * *specific* shingles are those with a word that only a few inputs carry and that is a name
 * (written capitalised, never in lower case) or a number: what tells one task of a template
 * from another (`Rinmark Faolla`, `37 boxes`). Two inputs, or an input and a harness, are
 * compared only when they share a specific shingle (`nearCopies` in near-copies.ts, `nearDuplicates`); each specific shingle is held by at most
 * `rareCap` inputs, so the candidates a check looks at grow with the data, not with its square
 * (a bucketed index keyed by rare shingles; exact, unlike MinHash bands, so nothing is missed
 * by chance).
 */

/** Thresholds of `nearDuplicates` (weighted Jaccard similarity of two inputs' shingles). */
export const nearDuplicateThresholds = {
  all: 0.5,
  specific: 0.4,
} as const;

/** One input's signature. */
export interface Signature {
  /** Shingle hash → weight. */
  weights: Map<number, number>;
  total: number;
  /** Its wording: the words that are not specific (the template's), hash → idf weight. */
  wording: Map<number, number>;
  wordingTotal: number;
  specific: Set<number>;
  /**
   * Its specific words (names' words, rare numbers), each with its *anchors*: the pair shingles
   * that join it to a word it stands beside in the input (`pairGap`) that is specific too or no
   * function word (`functionWords`): `24 hours`, not `and 24`. A name's word (made up, rare,
   * never written in lower case) anchors itself: no general rule writes it by chance.
   */
  specificWords: Map<number, Set<number>>;
  /** The specific shingles with a name word. */
  named: Set<number>;
}

/** The index of a set of task inputs (see the module comment). */
export interface InputIndex {
  readonly size: number;
  /** Most inputs a word may be in and still make a shingle specific. */
  readonly rareCap: number;
  /** Specific shingle → the inputs whose signature holds it. */
  readonly postings: ReadonlyMap<number, readonly number[]>;
  /** The specific shingles with a name in them (not only a number). */
  readonly named: ReadonlySet<number>;
  /** The signature of input `task` (computed on demand, kept). */
  signature(task: number): Signature;
}

/** The rare-word cap for `size` inputs: 2.5% of them, at least 3 and at most 50. */
export function rareCap(size: number): number {
  return Math.max(3, Math.min(50, Math.ceil(size * 0.025)));
}

/**
 * Indexes `inputs`. With `dropShared`, a sentence found word for word in two or more distinct
 * inputs (shared background notes, a fixed instruction) is left out of every signature: it
 * says nothing about which task a text copies.
 */
export function indexInputs(
  inputs: readonly string[],
  options: { dropShared: boolean },
): InputIndex {
  return runSteps(indexInputSteps(inputs, options));
}

/** `indexInputs` as steps (`runStepsYielding` keeps the event loop turning meanwhile). */
export function* indexInputSteps(
  inputs: readonly string[],
  options: { dropShared: boolean },
): Steps<InputIndex> {
  const { sentences, documentFrequency } = yield* countSentences(inputs);
  const cap = rareCap(inputs.length);
  const { named, lower } = wordCasing(inputs);
  const factsOf = new Map<string, WordFacts>();
  const facts = (word: string): WordFacts => {
    const known = factsOf.get(word);
    if (known) return known;
    const frequency = documentFrequency.get(word) ?? 1;
    const rare = frequency <= cap;
    const isName = rare && named.has(word) && !lower.has(word);
    const found = {
      idf: Math.log(1 + inputs.length / frequency),
      rare,
      name: isName,
      specific: isName || (rare && /^\d/.test(word)),
    };
    factsOf.set(word, found);
    return found;
  };
  const kept = (sentence: string[]) =>
    !options.dropShared || (sentences.get(featureHash(sentence.join(" "))) ?? 0) < 2;
  const signatures = new Map<number, Signature>();
  const signature = (task: number): Signature => {
    const known = signatures.get(task);
    if (known) return known;
    const made = signatureOf(sentenceKeys(inputs[task]).filter(kept), facts);
    // A bounded memo: signatures are cheap to recompute, and a large set would not fit.
    if (signatures.size >= 4096) signatures.clear();
    signatures.set(task, made);
    return made;
  };
  const postings = new Map<number, number[]>();
  const namedShingles = new Set<number>();
  for (let task = 0; task < inputs.length; task += 1) {
    if (task % stepSize === stepSize - 1) yield;
    const made = signature(task);
    for (const hash of made.named) namedShingles.add(hash);
    for (const hash of made.specific) {
      const list = postings.get(hash);
      if (list) list.push(task);
      else postings.set(hash, [task]);
    }
  }
  return { size: inputs.length, rareCap: cap, postings, named: namedShingles, signature };
}

/** In how many distinct inputs each sentence (by hash) and each word occurs. */
function* countSentences(inputs: readonly string[]) {
  const sentences = new Map<number, number>();
  const documentFrequency = new Map<string, number>();
  const seen = new Set<number>();
  for (const [at, input] of inputs.entries()) {
    if (at % stepSize === stepSize - 1) yield;
    const keys = sentenceKeys(input);
    const identity = featureHash(keys.map((sentence) => sentence.join(" ")).join("\n"));
    if (seen.has(identity)) continue;
    seen.add(identity);
    for (const hash of new Set(keys.map((sentence) => featureHash(sentence.join(" ")))))
      sentences.set(hash, (sentences.get(hash) ?? 0) + 1);
    for (const word of new Set(keys.flat()))
      documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  }
  return { sentences, documentFrequency };
}

/** What a signature needs to know of a word. */
interface WordFacts {
  idf: number;
  specific: boolean;
  name: boolean;
  rare: boolean;
}

/** The signature of one input's kept sentences (shingles as `shingleKeys` makes them). */
function signatureOf(sentences: string[][], facts: (word: string) => WordFacts): Signature {
  const weights = new Map<number, number>();
  const wording = new Map<number, number>();
  const specific = new Set<number>();
  const named = new Set<number>();
  const fallback = new Set<number>();
  const anchors = new Anchors();
  const known = sentences.map((sentence) => sentence.map(facts));
  const anySpecific = known.some((sentence) => sentence.some((word) => word.specific));
  const add = (text: string, parts: WordFacts[]) => {
    const hash = featureHash(text);
    weights.set(hash, Math.max(...parts.map((part) => part.idf)));
    if (parts.some((part) => part.specific)) specific.add(hash);
    else if (!anySpecific && parts.some((part) => part.rare)) fallback.add(hash);
    if (parts.some((part) => part.name)) named.add(hash);
    return hash;
  };
  sentences.forEach((sentence, at) => {
    const words = known[at];
    for (let index = 0; index < sentence.length; index += 1) {
      const single = add(sentence[index], [words[index]]);
      if (words[index].name) anchors.record(single, single);
      if (!words[index].specific) wording.set(featureHash(sentence[index]), words[index].idf);
      for (let gap = 1; gap <= pairGap && index + gap < sentence.length; gap += 1) {
        const [left, right] = [index, index + gap];
        const pair = add(`${sentence[left]} ${sentence[right]}`, [words[left], words[right]]);
        anchors.add(pair, [sentence[left], words[left]], [sentence[right], words[right]]);
      }
    }
  });
  const sum = (map: Map<number, number>) => [...map.values()].reduce((a, b) => a + b, 0);
  return {
    weights,
    total: sum(weights),
    wording,
    wordingTotal: sum(wording),
    specific: anySpecific ? specific : fallback,
    specificWords: anchors.byWord,
    named,
  };
}

/** The anchors of an input's specific words (see `Signature.specificWords`), pair by pair. */
class Anchors {
  readonly byWord = new Map<number, Set<number>>();

  /** Records `pair` (the hash of `left right`) as an anchor of each side that it anchors. */
  add(pair: number, left: [string, WordFacts], right: [string, WordFacts]): void {
    this.anchor(pair, left, right);
    this.anchor(pair, right, left);
  }

  private anchor(
    pair: number,
    [word, facts]: [string, WordFacts],
    [partner, other]: [string, WordFacts],
  ) {
    if (!facts.specific || (!other.specific && functionWords.has(partner))) return;
    this.record(featureHash(word), pair);
  }

  /** Records `shingle` as an anchor of the word `word` (a hash; a name's word anchors itself). */
  record(word: number, shingle: number): void {
    const known = this.byWord.get(word);
    if (known) known.add(shingle);
    else this.byWord.set(word, new Set([shingle]));
  }
}

/** Two near-duplicate inputs and how alike they are (weighted Jaccard of their shingles). */
export interface NearDuplicate {
  left: number;
  right: number;
  similarity: number;
}

/**
 * The pairs of near-duplicate inputs with one input on each side (`isLeft` tells the sides):
 * weighted Jaccard similarity of their shingles ≥ `nearDuplicateThresholds.all` and of their
 * specific shingles ≥ `.specific`. Only inputs that share a specific shingle are compared.
 */
export function nearDuplicates(
  index: InputIndex,
  isLeft: (task: number) => boolean,
): NearDuplicate[] {
  return runSteps(nearDuplicateSteps(index, isLeft));
}

/** `nearDuplicates` as steps (`runStepsYielding` keeps the event loop turning meanwhile). */
export function* nearDuplicateSteps(
  index: InputIndex,
  isLeft: (task: number) => boolean,
): Steps<NearDuplicate[]> {
  const pairs = new Set<number>();
  const found: NearDuplicate[] = [];
  for (const tasks of index.postings.values()) {
    const left = tasks.filter(isLeft);
    if (left.length === 0 || left.length === tasks.length) continue;
    for (const right of tasks.filter((task) => !isLeft(task))) {
      for (const other of left) {
        const key = other * index.size + right;
        if (pairs.has(key)) continue;
        pairs.add(key);
        if (pairs.size % stepSize === 0) yield;
        const similarity = jaccard(index.signature(other), index.signature(right));
        if (
          similarity.all >= nearDuplicateThresholds.all &&
          similarity.specific >= nearDuplicateThresholds.specific
        )
          found.push({ left: other, right, similarity: similarity.all });
      }
    }
  }
  return found.sort((a, b) => a.left - b.left || a.right - b.right);
}

/** Weighted Jaccard similarity of two signatures, overall and of their specific shingles. */
export function jaccard(a: Signature, b: Signature): { all: number; specific: number } {
  let shared = 0;
  for (const [hash, weight] of a.weights) if (b.weights.has(hash)) shared += weight;
  const union = a.total + b.total - shared;
  let specificShared = 0;
  for (const hash of a.specific) if (b.specific.has(hash)) specificShared += 1;
  const specificUnion = a.specific.size + b.specific.size - specificShared;
  return {
    all: union > 0 ? shared / union : 1,
    specific: specificUnion > 0 ? specificShared / specificUnion : 1,
  };
}
