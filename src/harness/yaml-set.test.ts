import { describe, expect, it } from "vitest";
import { typedSetting } from "./yaml-set.js";

describe("typedSetting", () => {
  it("holds for numbers, booleans and enumerated values of their fields", () => {
    expect(typedSetting("agent_loop.max_steps", 7)).toBe(true);
    expect(typedSetting("agent_loop.max_steps", "7")).toBe(true);
    expect(typedSetting("tools.calculator.enabled", true)).toBe(true);
    expect(typedSetting("tools.calculator.enabled", "true")).toBe(true);
    expect(typedSetting("context.overflow", "keep_task")).toBe(true);
    expect(typedSetting("observation.on_error", "hint")).toBe(true);
  });

  it("fails for text fields, values outside an enum and unknown paths", () => {
    expect(typedSetting("completion.format_instruction", "End with 'Answer: 42'.")).toBe(false);
    expect(typedSetting("observation.error_hint", "hint")).toBe(false);
    expect(typedSetting("tools.lookup.description", "Look up Ysiwen Garvin")).toBe(false);
    expect(typedSetting("context.overflow", "keep Garvin")).toBe(false);
    expect(typedSetting("agent_loop.max_steps", "seven")).toBe(false);
    expect(typedSetting("tools.calculator.enabled", "yes")).toBe(false);
    expect(typedSetting("agent_loop", 3)).toBe(false);
    expect(typedSetting("nope.field", 1)).toBe(false);
  });
});
