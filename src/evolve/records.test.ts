import { describe, expect, it } from "vitest";
import { makeRecord, makeTask, step } from "../diagnose/testing/rollout-fixtures.js";
import { failingDifferently } from "./records.js";

const tasks = ["a", "b", "c", "d"].map((id) => makeTask(id));
const toolError = step([
  { name: "lookup", arguments: "{}", result: "error: no entry", error: true },
]);

describe("failingDifferently", () => {
  it("names the tasks that fail on both sides with other deterministic signals", () => {
    const before = [
      // Gave up after a tool error.
      makeRecord({
        taskId: "a",
        output: "The lookup tool returned an error, so I cannot finish this task.",
        answer: null,
        steps: [toolError],
      }),
      makeRecord({ taskId: "b" }),
      makeRecord({ taskId: "c" }),
      makeRecord({ taskId: "d" }),
    ];
    const after = [
      // Retried after the hint, then ran out of steps: the same task, another failure.
      makeRecord({
        taskId: "a",
        output: "",
        answer: null,
        events: ["step-limit"],
        steps: [toolError, step(), step()],
      }),
      // The same wrong answer again: not shifted.
      makeRecord({ taskId: "b" }),
      // Passes now: fixed, not shifted.
      makeRecord({ taskId: "c", pass: true, answer: "42" }),
    ];
    expect(failingDifferently({ before, after, tasks, stepLimits: { after: 3 } })).toEqual(["a"]);
  });
});
