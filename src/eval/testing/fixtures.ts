import type { Task } from "../../config/task-schema.js";
import type { LoadedHarness } from "../../harness/types.js";

/** Test fixture: `count` arithmetic tasks `q0…` whose answer is the index, in two categories. */
export function numberedTasks(count: number): Task[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `q${index}`,
    input: `What is ${index} + 0?`,
    expected: String(index),
    category: index % 2 === 0 ? "even" : "odd",
  }));
}

/** Test fixture: a harness as data (no files needed by the echo agent). */
export function fakeHarness(hash = "h".repeat(64)): LoadedHarness {
  return { kind: "builtin", dir: "/nonexistent", files: {}, hash };
}

/** The number a task input asks about (`What is 7 + 0?` → "7"). */
export function askedNumber(input: string): string {
  return /What is (\d+)/.exec(input)?.[1] ?? "";
}
