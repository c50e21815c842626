import { answerScorer, type Scorer } from "./scorer.js";

/** Parses JSON from an answer, tolerating a Markdown code fence or prose around one object/array. */
export function parseJsonAnswer(answer: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(answer);
  const text = (fenced ? fenced[1] : answer).trim();
  try {
    return JSON.parse(text);
  } catch {
    const start = text.search(/[{[]/);
    const end = Math.max(text.lastIndexOf("}"), text.lastIndexOf("]"));
    if (start < 0 || end <= start) return undefined;
    try {
      return JSON.parse(text.slice(start, end + 1));
    } catch {
      return undefined;
    }
  }
}

/**
 * Whether `actual` contains `expected`: objects by key (extra keys allowed), arrays when every
 * expected element is contained in a distinct actual element, primitives by equality.
 */
export function isJsonSubset(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false;
    const used = new Set<number>();
    return expected.every((item) => {
      const index = actual.findIndex(
        (candidate, at) => !used.has(at) && isJsonSubset(item, candidate),
      );
      if (index < 0) return false;
      used.add(index);
      return true;
    });
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    const record = actual as Record<string, unknown>;
    return Object.entries(expected).every(
      ([key, value]) => key in record && isJsonSubset(value, record[key]),
    );
  }
  return Object.is(expected, actual) || expected === actual;
}

/** `json_subset`: the answer parses as JSON and contains `expected` as a subset. */
export function jsonSubsetScorer(): Scorer {
  return answerScorer((answer, task) => {
    const actual = parseJsonAnswer(answer);
    return actual !== undefined && isJsonSubset(task.expected, actual);
  });
}
