import { guardText } from "../safety/guard-text.js";
import { redactionMarker, SecretRedactor, secretPatterns } from "../safety/secrets.js";
import type { GuardContext } from "./guard-context.js";
import type { LabelWord } from "./label-words.js";

/** Default cap on a harness file's size after an edit. */
export const defaultMaxFileBytes = 64 * 1024;
/** Default cap on the new text one edit brings. */
export const defaultMaxEditBytes = 8 * 1024;
/** Most distinct files one call of applyEdits may change. */
export const maxEditedFiles = 20;
/** Length of the word n-grams the input-leak check compares. */
export const leakNgramWords = 8;

export { findSecret } from "../safety/secrets.js";

/** Forbidden strings too short or too common to check without false alarms. */
export function isCheckableAnswer(value: string): boolean {
  const trimmed = guardText(value).trim();
  if (trimmed.length < 3) return false;
  if (/^[+-]?\d+$/.test(trimmed) && Math.abs(Number(trimmed)) < 100) return false;
  return true;
}

/** The comparison key of an answer or label: guard-normalised, lower-cased, spaces collapsed, trimmed. */
export function labelKey(text: string): string {
  return guardText(text).toLowerCase().replace(/\s+/g, " ").trim();
}

/** Occurrences of `needle` in `text` as a whole token (not inside a longer word or number), case-insensitive. */
export function countToken(text: string, needle: string): number {
  const escaped = needle
    .trim()
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\s+/g, "\\s+");
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "giu");
  return text.match(pattern)?.length ?? 0;
}

/** Lower-cased words with punctuation trimmed from their edges, read after guard normalisation. */
export function normalisedWords(text: string): string[] {
  return guardText(text)
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((word) => word.length > 0);
}

/** The `leakNgramWords`-word n-grams of one text. */
function ngramsOf(text: string): string[] {
  const words = normalisedWords(text);
  const grams: string[] = [];
  for (let index = 0; index + leakNgramWords <= words.length; index += 1)
    grams.push(words.slice(index, index + leakNgramWords).join(" "));
  return grams;
}

/** The set of `leakNgramWords`-word n-grams of the given texts, normalised (see `normalisedWords`). */
export function ngramSet(texts: string[]): Set<string> {
  return new Set(texts.flatMap(ngramsOf));
}

/** The first n-gram of `text` found in `grams`, or null. */
export function sharedNgram(text: string, grams: Set<string>): string | null {
  if (grams.size === 0) return null;
  return ngramsOf(text).find((gram) => grams.has(gram)) ?? null;
}

/** What the content guards forbid, prepared once from a guard context (normalised). */
export interface ContentRules {
  /**
   * Checkable expected answers an edit may not introduce, normalised; `probe` is the
   * lower-cased, space-collapsed form. Label words are not among them.
   */
  answers: { text: string; probe: string }[];
  /** Checkable label words: an edit may introduce them, and is flagged for the reviewer. */
  labels: (LabelWord & { probe: string })[];
  /** n-grams of the task inputs. */
  grams: Set<string>;
  /** The configured secret values, in every form they can leak in. */
  secrets: SecretRedactor;
}

/** Prepares a guard context's forbidden content for `introducedContent`. */
export function contentRules(guard: GuardContext): ContentRules {
  const labels = new Map<string, LabelWord>();
  for (const label of guard.labelWords ?? []) {
    const text = guardText(label.text).trim();
    if (isCheckableAnswer(text) && !labels.has(labelKey(text)))
      labels.set(labelKey(text), { text, why: label.why });
  }
  // A one-task name is flagged, never exempted: only answer labels exempt an answer.
  const exempt = (text: string) => {
    const label = labels.get(labelKey(text));
    return label !== undefined && label.why !== "one-task";
  };
  const answers = [...new Set(guard.forbiddenStrings.map((answer) => guardText(answer).trim()))]
    .filter((text) => isCheckableAnswer(text) && !exempt(text))
    .map((text) => ({ text, probe: collapse(text) }));
  return {
    answers,
    labels: [...labels.values()].map((label) => ({ ...label, probe: collapse(label.text) })),
    grams: ngramSet(guard.forbiddenInputs),
    secrets: new SecretRedactor(guard.secretValues ?? []),
  };
}

/** A content guard's verdict on a text: which guard refused it and why (never quoting a secret). */
export interface ContentFinding {
  guard: "leak" | "secret";
  reason: string;
}

/**
 * The first forbidden thing the whole text `after` carries that `before` did not: a configured
 * secret value (in any form, even split by whitespace), the redaction marker records carry in
 * place of a secret (`redactionMarker`), a credential shape, an expected answer
 * as a whole token, or an n-gram of a task input. Both texts are compared after guard
 * normalisation (NFKC, invisible characters removed), so text split across edits, or disguised
 * with zero-width, bidi, tag or fullwidth characters, is the text itself. What the seed already
 * had (a knowledge line kept verbatim) is not a new leak. The reason never quotes the finding:
 * rejections are shown to later refiner calls, and a held-out answer must not reach them.
 */
export function introducedContent(input: {
  before: string;
  after: string;
  rules: ContentRules;
}): ContentFinding | null {
  const { rules } = input;
  const after = guardText(input.after);
  const before = guardText(input.before);
  if (rules.secrets.countValue(after) > rules.secrets.countValue(before))
    return { guard: "secret", reason: "it would contain the value of a configured secret" };
  if (after.split(redactionMarker).length > before.split(redactionMarker).length)
    return {
      guard: "secret",
      reason: "it would carry a secret that was redacted from the records",
    };
  for (const { name, pattern } of secretPatterns) {
    const found = after.match(pattern) ?? [];
    if (found.length === 0) continue;
    const known = new Set(before.match(pattern) ?? []);
    if (found.some((match) => !known.has(match)))
      return { guard: "secret", reason: `it would contain what looks like ${name}` };
  }
  const collapsedAfter = collapse(after);
  for (const answer of rules.answers) {
    if (!collapsedAfter.includes(answer.probe)) continue;
    if (countToken(after, answer.text) > countToken(before, answer.text))
      return { guard: "leak", reason: "it would introduce the expected answer of a task" };
  }
  if (rules.grams.size > 0) {
    const added = ngramsOf(after).filter((gram) => rules.grams.has(gram));
    if (added.length > 0) {
      const existing = new Set(ngramsOf(before));
      if (added.some((gram) => !existing.has(gram)))
        return {
          guard: "leak",
          reason: `it would copy a ${leakNgramWords}-word run of a task input`,
        };
    }
  }
  return null;
}

/**
 * The label words the whole text `after` has more of than `before` (compared like
 * `introducedContent`'s answers), in the order they appear: allowed, but shown to the reviewer
 * with the edit and file.
 */
export function introducedLabels(input: {
  before: string;
  after: string;
  rules: ContentRules;
}): LabelWord[] {
  const after = guardText(input.after);
  const before = guardText(input.before);
  const collapsedAfter = collapse(after);
  return input.rules.labels
    .filter(
      (label) =>
        collapsedAfter.includes(label.probe) &&
        countToken(after, label.text) > countToken(before, label.text),
    )
    .sort((a, b) => collapsedAfter.indexOf(a.probe) - collapsedAfter.indexOf(b.probe))
    .map(({ text, why }) => ({ text, why }));
}

function collapse(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ");
}

/**
 * The text a content guard reads for one harness file: the file as written and, for a parsed
 * config (harness.yaml), every string value in it, one per line. YAML escapes (`"\u0073k-…"`)
 * and folded scalars would hide from the raw text what the runtime puts in the prompt.
 */
export function guardedText(text: string, config?: unknown): string {
  if (config === undefined) return text;
  const strings: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === "string") strings.push(value);
    else if (Array.isArray(value)) for (const item of value) visit(item);
    else if (value && typeof value === "object")
      for (const item of Object.values(value)) visit(item);
  };
  visit(config);
  return `${text}\n${strings.join("\n")}`;
}
