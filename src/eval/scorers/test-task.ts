import type { Task } from "../../config/task-schema.js";

/** Test helper: a task with the given expectation. */
export function taskExpecting(expected: unknown, extra: Partial<Task> = {}): Task {
  return {
    id: "t1",
    input: "What is the answer?",
    expected: expected as Task["expected"],
    category: "default",
    ...extra,
  };
}

/** Test helper: a scorer output whose extracted answer is `answer`. */
export function answered(
  answer: string | null,
  output = answer ?? "",
): { answer: string | null; output: string } {
  return { answer, output };
}
