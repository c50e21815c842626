import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { parseHarnessYaml } from "./harness-yaml.js";

function failure(text: string): InputError {
  try {
    parseHarnessYaml("h/harness.yaml", text);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error("expected an InputError");
}

describe("parseHarnessYaml", () => {
  it("fills defaults for an empty file", () => {
    const config = parseHarnessYaml("harness.yaml", "");
    expect(config.agent_loop).toEqual({ style: "react", max_steps: 4, self_check: false });
    expect(config.prompt.rules).toBe("rules.md");
  });
  it("names line and field of a wrong value", () => {
    const error = failure("agent_loop:\n  style: react\n  max_steps: many\n");
    expect(error.file).toBe("h/harness.yaml");
    expect(error.location).toEqual({ line: 3, field: "agent_loop.max_steps" });
  });
  it("names line and field of an unknown key", () => {
    const error = failure(
      "tools:\n  calculator:\n    enabled: true\n  browser:\n    enabled: true\n",
    );
    expect(error.location).toEqual({ line: 4, field: "tools.browser" });
    expect(error.message).toContain("unknown key 'browser' (check the spelling");
  });
  it("lists every violation, the first one located", () => {
    const error = failure("agent_loop:\n  max_step: 3\n  style: loop\n");
    expect(error.location).toEqual({ line: 3, field: "agent_loop.style" });
    expect(error.message).toContain("line 2: 'agent_loop.max_step': unknown key 'max_step'");
  });
  it("reports YAML syntax errors with a line", () => {
    const error = failure("agent_loop:\n  style: [react\n");
    expect(error.location.line).toBeGreaterThanOrEqual(2);
    expect(error.message).toContain("invalid YAML");
  });
  it("rejects an answer pattern that is not a regular expression", () => {
    const error = failure("completion:\n  answer_pattern: '(unclosed'\n");
    expect(error.location).toEqual({ line: 2, field: "completion.answer_pattern" });
  });
});
