import { describe, expect, it } from "vitest";
import { describeField, harnessReference } from "./harness-reference.js";
import { harnessModules } from "./harness-schema.js";

describe("harnessReference", () => {
  const reference = harnessReference();

  it("describes every field of harness.yaml, with its module", () => {
    expect(reference.fields.length).toBeGreaterThanOrEqual(18);
    for (const field of reference.fields) {
      expect(field.description, field.path).not.toBe("");
      expect(field.path.startsWith(`${field.module}.`)).toBe(true);
    }
  });

  it("states types, allowed values, ranges and defaults", () => {
    const byPath = new Map(reference.fields.map((field) => [field.path, field]));
    expect(byPath.get("agent_loop.max_steps")).toMatchObject({
      type: "integer",
      range: { min: 1, max: 64 },
      default: 4,
    });
    expect(byPath.get("context.overflow")?.allowed).toEqual(["drop_oldest", "keep_task"]);
    expect(byPath.get("tools.calculator.enabled")).toMatchObject({
      type: "boolean",
      default: false,
    });
    expect(describeField(byPath.get("agent_loop.max_steps") ?? reference.fields[0])).toMatch(
      /^agent_loop\.max_steps \(integer, 1–64, default 4\): model turns/,
    );
    expect(describeField(byPath.get("observation.on_error") ?? reference.fields[0])).toContain(
      "one of show | hint",
    );
  });

  it("describes the modules and the tools that exist", () => {
    expect(reference.modules.map((module) => module.name)).toEqual([...harnessModules]);
    for (const module of reference.modules) expect(module.description).not.toBe("");
    expect(reference.tools.map((tool) => tool.name)).toEqual(["calculator", "lookup"]);
    expect(reference.tools[0].description).toMatch(/^calculator\(expression\)/);
  });
});
