import { describe, expect, it } from "vitest";
import { type Cause, canonicalCause } from "./evidence.js";
import { errorGuidance, formatInstruction } from "./fixes.js";
import { causeLabels, type FixAction, readAction, renderAction } from "./wording.js";

const actions: FixAction[] = [
  { kind: "set", path: "agent_loop.max_steps", value: 8 },
  { kind: "set", path: "tools.calculator.enabled", value: true },
  { kind: "set", path: "context.overflow", value: "keep_task" },
  { kind: "set", path: "observation.on_error", value: "hint" },
  { kind: "set", path: "completion.format_instruction", value: formatInstruction },
  { kind: "rule", text: "Read the question carefully before answering." },
  { kind: "instruct", file: "system.md", text: formatInstruction },
  { kind: "instruct", file: "prompts/system.md", text: errorGuidance },
];

describe("the sim refiner's words", () => {
  it("reads back every change it writes, tidy or plain-spoken, in every wording", () => {
    for (const action of actions) {
      expect(readAction(renderAction(action, "tidy", 0))).toEqual(action);
      for (const unit of [0, 0.34, 0.67, 0.99]) {
        const words = renderAction(action, "plainspoken", unit);
        expect(readAction(words), words).toEqual(action);
        expect(readAction(`Runs fail this way. We should ${words}.`), words).toEqual(action);
      }
    }
  });

  it("varies the wording of one change", () => {
    const wordings = new Set(
      [0, 0.4, 0.8].map((unit) => renderAction(actions[0], "plainspoken", unit)),
    );
    expect(wordings.size).toBeGreaterThan(1);
  });

  it("every cause label it writes names its cause to a reader that knows the causes", () => {
    for (const [cause, labels] of Object.entries(causeLabels))
      for (const label of labels) expect(canonicalCause(label), label).toBe(cause as Cause);
  });

  it("reads nothing from a sentence that names no change", () => {
    expect(readAction("The model is careless on these tasks.")).toBeNull();
  });
});
