import type { Task } from "../../config/task-schema.js";
import type { Verdict } from "../types.js";

/** What a scorer sees of a rollout: the extracted answer (null when none) and the full output. */
export interface ScorerOutput {
  answer: string | null;
  output: string;
}

/** Scores one output against a task's expectation. One method; one implementation per kind. */
export interface Scorer {
  score(task: Task, output: ScorerOutput): Promise<Verdict>;
}

/** Verdict reasons the scorers and the runner produce (patterns group on them). */
export type VerdictReason = "pass" | "wrong-answer" | "no-answer" | "scorer-error" | "infra-error";

/** A passing verdict. */
export const passed = (score = 1): Verdict => ({ pass: true, score, reason: "pass" });
/** A failing verdict with its reason. */
export const failed = (reason: Exclude<VerdictReason, "pass">, score = 0): Verdict => ({
  pass: false,
  score,
  reason,
});

/** Expected values as a list of acceptable alternatives (an array means "any of these"). */
export function alternatives(expected: unknown): unknown[] {
  return Array.isArray(expected) ? expected : [expected];
}

/** Text of an expected value: strings as-is, everything else as JSON. */
export function expectedText(expected: unknown): string {
  return typeof expected === "string" ? expected : JSON.stringify(expected);
}

/**
 * Wraps a comparison that needs an extracted answer: a missing or blank answer is `no-answer`,
 * a throwing comparison is `scorer-error`.
 */
export function answerScorer(compare: (answer: string, task: Task) => boolean): Scorer {
  return {
    async score(task, output) {
      if (output.answer === null || output.answer.trim() === "") return failed("no-answer");
      try {
        return compare(output.answer, task) ? passed() : failed("wrong-answer");
      } catch {
        return failed("scorer-error");
      }
    },
  };
}
