import { alternatives, answerScorer, expectedText, type Scorer } from "./scorer.js";

/** `regex`: the answer matches the expected pattern (any of a list); an invalid pattern is a scorer error. */
export function regexScorer(spec: { flags: string }): Scorer {
  return answerScorer((answer, task) =>
    alternatives(task.expected).some((pattern) =>
      new RegExp(expectedText(pattern), spec.flags).test(answer),
    ),
  );
}
