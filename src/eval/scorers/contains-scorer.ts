import { normaliseAnswer } from "./normalise.js";
import { alternatives, answerScorer, expectedText, type Scorer } from "./scorer.js";

/** `contains`: the normalised answer contains the normalised expected text (any of a list). */
export function containsScorer(): Scorer {
  return answerScorer((answer, task) => {
    const haystack = normaliseAnswer(answer);
    return alternatives(task.expected).some((expected) =>
      haystack.includes(normaliseAnswer(expectedText(expected))),
    );
  });
}
