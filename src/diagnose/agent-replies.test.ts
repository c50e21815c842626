import { describe, expect, it } from "vitest";
import { silentAgentReason } from "./agent-replies.js";
import { makeRecord, step } from "./testing/rollout-fixtures.js";

/** A command harness's record that reports no steps: only its printed output is known. */
function stepless(taskId: string, output: string) {
  return makeRecord({ taskId, output, answer: output === "" ? null : output, steps: [] });
}

describe("silentAgentReason", () => {
  it("is undefined when some rollout answered, right or wrong", () => {
    expect(silentAgentReason([stepless("t1", ""), stepless("t2", "Paris")])).toBeUndefined();
    expect(silentAgentReason([makeRecord({ taskId: "t1" })])).toBeUndefined();
  });

  it("names an agent that printed an empty output and no steps in every rollout", () => {
    const reason = silentAgentReason([stepless("t1", ""), stepless("t2", "  \n")]);
    expect(reason).toMatch(/empty output in every one of 2 rollouts/);
    expect(reason).toContain("task t1");
    expect(reason).toMatch(/"output"/);
  });

  it("counts model turns that were all empty as before", () => {
    const empty = { ...step(), assistant: "" };
    const reason = silentAgentReason([
      makeRecord({ taskId: "t1", output: "", answer: null, steps: [empty] }),
    ]);
    expect(reason).toMatch(/no usable reply in 1 turns of 1 rollouts \(1 empty\)/);
  });

  it("puts a crash first: the agent's exit and stderr say more than its empty output", () => {
    const crashed = makeRecord({
      taskId: "t1",
      output: "",
      answer: null,
      steps: [],
      events: ["process-error"],
      eventDetails: { "process-error": "exit 1: ModuleNotFoundError" },
    });
    expect(silentAgentReason([crashed])).toMatch(/crashed in every one of 1 rollouts/);
  });
});
