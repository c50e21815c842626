import { normaliseAnswer } from "./normalise.js";
import { alternatives, answerScorer, expectedText, type Scorer } from "./scorer.js";

/** `exact`: the normalised answer equals the normalised expected value (or one of a list). */
export function exactScorer(): Scorer {
  return answerScorer((answer, task) => {
    const candidate = normaliseAnswer(answer);
    return alternatives(task.expected).some(
      (expected) => normaliseAnswer(expectedText(expected)) === candidate,
    );
  });
}
