import type { Evidence } from "./evidence.js";

/**
 * Signals that settle how a run failed, whatever the note says: cut at the step limit, the task
 * statement lost, no answer extracted, gave up, a tool error, a number that is off, timed out,
 * the process or the endpoint failed. Runs that share these fail the same way as far as the
 * harness can tell; only runs without any (a plain wrong answer) need the note's label to tell
 * causes apart.
 */
export const decisiveSignals = [
  "step-limit",
  "task-dropped",
  "no-answer",
  "gave-up",
  "tool-error",
  "numeric-mismatch",
  "timeout",
  "process-error",
  "llm-error",
  "scorer-error",
] as const;

const joiningWords = new Set([
  "a",
  "an",
  "the",
  "in",
  "of",
  "on",
  "at",
  "by",
  "for",
  "to",
  "with",
  "from",
  "and",
]);

/** The content words of a label, singular, in a fixed order: `error-in-calculations` → `calculation error`. */
function wordsOf(label: string): string {
  return [
    ...new Set(
      label
        .split("-")
        .filter((word) => word !== "" && !joiningWords.has(word))
        .map((word) =>
          word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word,
        ),
    ),
  ]
    .sort()
    .join(" ");
}

/** The most frequent label of a list (ties: the one that sorts first). */
function mostFrequent(labels: string[]): string {
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  return [...counts.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))[0][0];
}

/**
 * Canonicalises the cause labels of a batch against the deterministic signals, before grouping,
 * so that a model's paraphrases of one cause (`missing-final-answer`, `no-answer-line`,
 * `format-noncompliance`) land in one pattern: failures with the same decisive signals
 * (`decisiveSignals`) take the most frequent label among them; elsewhere, labels made of the
 * same words (`calculation-error`, `error-in-calculations`) become one. The label as written
 * stays in `label`; `unexplained` stays as it is.
 */
export function canonicaliseCauses(evidence: Evidence[]): Evidence[] {
  const signature = (item: Evidence) =>
    decisiveSignals.filter((signal) => item.signals.includes(signal)).join("+");
  const explained = evidence.filter((item) => item.cause !== "unexplained");
  const bySignature = new Map<string, string[]>();
  const byWords = new Map<string, string[]>();
  for (const item of explained) {
    const key = signature(item);
    if (key !== "") bySignature.set(key, [...(bySignature.get(key) ?? []), item.cause]);
    const words = wordsOf(item.cause);
    byWords.set(words, [...(byWords.get(words) ?? []), item.cause]);
  }
  return evidence.map((item) => {
    const label = item.label ?? item.cause;
    if (item.cause === "unexplained") return { ...item, label };
    const key = signature(item);
    const cause =
      key !== ""
        ? mostFrequent(bySignature.get(key) ?? [item.cause])
        : mostFrequent(byWords.get(wordsOf(item.cause)) ?? [item.cause]);
    return { ...item, cause, label };
  });
}
