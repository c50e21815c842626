import { alternatives, answerScorer, type Scorer } from "./scorer.js";

const numberPattern = /[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-−]?\.\d+/;

/** The first number in a text, accepting thousands separators (`1,234.5`) and a Unicode minus. */
export function firstNumber(text: string): number | null {
  const match = numberPattern.exec(text);
  if (!match) return null;
  const value = Number(match[0].replace(/,/g, "").replace("−", "-"));
  return Number.isFinite(value) ? value : null;
}

/**
 * `numeric`: the first number of the answer is within `tolerance` of the expected number —
 * absolute, or relative to |expected| when `relative`.
 */
export function numericScorer(spec: { tolerance: number; relative: boolean }): Scorer {
  return answerScorer((answer, task) => {
    const actual = firstNumber(answer);
    if (actual === null) return false;
    return alternatives(task.expected).some((expected) => {
      const target = typeof expected === "number" ? expected : firstNumber(String(expected));
      if (target === null)
        throw new Error(`expected value ${JSON.stringify(expected)} is not a number`);
      const allowed = spec.relative ? spec.tolerance * Math.abs(target) : spec.tolerance;
      return Math.abs(actual - target) <= allowed;
    });
  });
}
