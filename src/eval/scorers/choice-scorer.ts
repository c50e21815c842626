import { normaliseAnswer } from "./normalise.js";
import { answerScorer, expectedText, type Scorer } from "./scorer.js";

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The one choice an answer names: an exact (normalised) match, else the only choice mentioned as a word. */
export function namedChoice(answer: string, choices: string[]): string | null {
  const normalised = normaliseAnswer(answer);
  const exact = choices.find((choice) => normaliseAnswer(choice) === normalised);
  if (exact !== undefined) return exact;
  const mentioned = choices.filter((choice) =>
    new RegExp(
      `(^|[^\\p{L}\\p{N}])${escapeRegex(normaliseAnswer(choice))}($|[^\\p{L}\\p{N}])`,
      "u",
    ).test(normalised),
  );
  return mentioned.length === 1 ? mentioned[0] : null;
}

/** `choice`: the answer names exactly one of `choices`, and it is the expected one. */
export function choiceScorer(spec: { choices: string[] }): Scorer {
  return answerScorer((answer, task) => {
    const expected = normaliseAnswer(expectedText(task.expected));
    if (!spec.choices.some((choice) => normaliseAnswer(choice) === expected)) {
      throw new Error(`expected value is not one of the choices`);
    }
    const named = namedChoice(answer, spec.choices);
    return named !== null && normaliseAnswer(named) === expected;
  });
}
