import { describe, expect, it } from "vitest";
import { childPointer, selectComponents } from "./component-selector.js";

const modules = ["agent_loop", "tools", "prompt"];

describe("component selector (GEPA's round-robin and all)", () => {
  it("round-robin: one component per reflection, in turn, wrapping around", () => {
    let pointer = 0;
    const picked: string[] = [];
    for (let turn = 0; turn < 4; turn++) {
      const selected = selectComponents({ selector: "round-robin", components: modules, pointer });
      picked.push(...selected.components);
      pointer = selected.pointer;
    }
    expect(picked).toEqual(["agent_loop", "tools", "prompt", "agent_loop"]);
  });

  it("all: every component, the pointer untouched", () => {
    expect(selectComponents({ selector: "all", components: modules, pointer: 2 })).toEqual({
      components: modules,
      pointer: 2,
    });
  });

  it("a child continues from the largest pointer of its parents", () => {
    expect(childPointer([1, 2])).toBe(2);
    expect(childPointer([])).toBe(0);
  });
});
