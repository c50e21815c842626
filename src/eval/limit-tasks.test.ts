import { describe, expect, it } from "vitest";
import type { Task } from "../config/task-schema.js";
import { limitTasks } from "./limit-tasks.js";

const task = (id: string, category: string): Task => ({ id, input: id, expected: "x", category });

describe("limitTasks", () => {
  const tasks = [
    task("a1", "a"),
    task("a2", "a"),
    task("a3", "a"),
    task("b1", "b"),
    task("c1", "c"),
    task("c2", "c"),
  ];

  it("takes categories in turn and keeps file order", () => {
    expect(limitTasks(tasks, 4).map((entry) => entry.id)).toEqual(["a1", "a2", "b1", "c1"]);
    expect(limitTasks(tasks, 5).map((entry) => entry.id)).toEqual(["a1", "a2", "b1", "c1", "c2"]);
    expect(limitTasks(tasks, 2).map((entry) => entry.id)).toEqual(["a1", "b1"]);
  });

  it("is the same subset every time, and everything when the limit is not smaller", () => {
    expect(limitTasks(tasks, 3)).toEqual(limitTasks([...tasks], 3));
    expect(limitTasks(tasks, 6)).toBe(tasks);
    expect(limitTasks(tasks, undefined)).toBe(tasks);
  });
});
