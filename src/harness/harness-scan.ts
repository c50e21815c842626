import { guardText } from "../safety/guard-text.js";
import { contentTokens, normalText, normalTokens } from "../safety/normal-form.js";
import { derivedNumbers } from "../safety/number-words.js";
import { redactionMarker, secretPatterns } from "../safety/secrets.js";
import { featureHash } from "../safety/text-features.js";
import { findAnswers } from "./answer-index.js";
import type { ContentRules } from "./content-rules.js";
import { answersInContext, lineRecords } from "./context-answers.js";

/** Length of the word n-grams the input-copy check compares verbatim. */
export const leakNgramWords = 8;

/** What one harness file holds that the content guards count (see `scanFile`). */
export interface FileScan {
  /** Refusable answer id → occurrences. */
  answers: Map<number, number>;
  /** Task index → lines where its small answer stands beside its name. */
  context: Map<number, number>;
  /** Label word id → occurrences, and where the first is (token index). */
  labels: Map<number, { count: number; first: number }>;
  /** Hashes of the task inputs' 8-grams the file holds. */
  grams: Set<number>;
  /** Each non-empty line's normal-form key and its token keys (for the near-copy evidence). */
  lines: { key: string; keys: string[] }[];
  /** Occurrences of configured secret values, of the redaction marker, and credential-shaped strings. */
  secretValues: number;
  markers: number;
  shapes: Map<string, Set<string>>;
}

/** Scans one file's guarded text once (remembered by text in `rules.scans`). */
export function scanFile(rules: ContentRules, text: string): FileScan {
  const known = rules.scans.get(text);
  if (known) return known;
  const scan = freshScan(rules, text);
  // A bounded memo: the files of the few harnesses a check compares.
  if (rules.scans.size >= 512) rules.scans.clear();
  rules.scans.set(text, scan);
  return scan;
}

function freshScan(rules: ContentRules, text: string): FileScan {
  const normal = normalText(text);
  const all = normalTokens(text);
  const tokens = contentTokens(all);
  const derived = rules.answers.answers.some((answer) => answer.sealed) ? derivedNumbers(all) : [];
  const hits = findAnswers({ index: rules.answers, tokens, derived });
  const answers = new Map<number, number>();
  for (const hit of hits)
    if (!rules.answers.answers[hit.id].small) answers.set(hit.id, (answers.get(hit.id) ?? 0) + 1);
  const small = hits.filter((hit) => rules.answers.answers[hit.id].small);
  const lines = normal.split("\n");
  const context =
    small.length === 0
      ? new Map<number, number>()
      : answersInContext({
          records: lineRecords(lines, all),
          hits: small,
          answersOf: rules.answersOf,
          index: rules.inputs,
        });
  return {
    answers,
    context,
    labels: labelCounts(rules, tokens),
    grams: ngramsIn(
      rules.grams,
      tokens.map((token) => token.key),
    ),
    lines: lineKeys(lines.length, tokens),
    ...secretCounts(rules, guardText(text)),
  };
}

function labelCounts(rules: ContentRules, tokens: ReturnType<typeof contentTokens>) {
  const labels = new Map<number, { count: number; first: number }>();
  for (const hit of findAnswers({ index: rules.labels, tokens })) {
    const seen = labels.get(hit.id);
    labels.set(hit.id, { count: (seen?.count ?? 0) + 1, first: seen?.first ?? hit.at });
  }
  return labels;
}

/** The hashes of the `leakNgramWords`-word runs of `keys`. */
export function ngramHashes(keys: readonly string[]): number[] {
  const hashes: number[] = [];
  for (let index = 0; index + leakNgramWords <= keys.length; index += 1)
    hashes.push(featureHash(keys.slice(index, index + leakNgramWords).join(" ")));
  return hashes;
}

/** The 8-gram hashes of `keys` found in the sorted `grams`. */
function ngramsIn(grams: Float64Array, keys: readonly string[]): Set<number> {
  return new Set(ngramHashes(keys).filter((hash) => sortedHas(grams, hash)));
}

/** Binary search in a sorted array. */
function sortedHas(sorted: Float64Array, value: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle] === value) return true;
    if (sorted[middle] < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

function lineKeys(count: number, tokens: ReturnType<typeof contentTokens>) {
  const keys: string[][] = Array.from({ length: count }, () => []);
  for (const token of tokens) keys[token.line]?.push(token.key);
  return keys
    .filter((line) => line.length > 0)
    .map((line) => ({ key: line.join(" "), keys: line }));
}

function secretCounts(rules: ContentRules, text: string) {
  const shapes = new Map<string, Set<string>>();
  for (const { name, pattern } of secretPatterns) {
    const found = text.match(pattern) ?? [];
    if (found.length > 0) shapes.set(name, new Set(found));
  }
  return {
    secretValues: rules.secrets.countValue(text),
    markers: text.split(redactionMarker).length - 1,
    shapes,
  };
}
