import { describe, expect, it } from "vitest";
import { loadHarness } from "./load-harness.js";
import { harnessRules, renderSystemPrompt } from "./render.js";
import { fixtureFiles, makeHarnessDir } from "./testing/harness-fixture.js";

describe("renderSystemPrompt", () => {
  it("renders system file, rules and answer format as the sim protocol shows", async () => {
    const harness = await loadHarness({ dir: await makeHarnessDir(), kind: "builtin" });
    expect(harnessRules(harness)).toEqual([
      "Show your work.",
      "Use the calculator for arithmetic.",
    ]);
    expect(renderSystemPrompt(harness)).toBe(
      [
        "You are a careful assistant.",
        "",
        "## Rules",
        "- Show your work.",
        "- Use the calculator for arithmetic.",
        "",
        "## Answer format",
        "End with a final line 'Answer: <value>'.",
      ].join("\n"),
    );
  });

  it("omits empty sections and appends the text-protocol tools section last", async () => {
    const files = {
      ...fixtureFiles,
      "harness.yaml": "agent_loop:\n  style: single_shot\n",
      "rules.md": "no bullets here\n",
    };
    const harness = await loadHarness({ dir: await makeHarnessDir(files), kind: "builtin" });
    expect(renderSystemPrompt(harness)).toBe("You are a careful assistant.");
    expect(renderSystemPrompt(harness, { toolsSection: "- calculator: math" })).toBe(
      "You are a careful assistant.\n\n## Tools\n- calculator: math",
    );
  });

  it("reads prompt files named with a './' prefix", async () => {
    const files = {
      ...fixtureFiles,
      "harness.yaml": "prompt:\n  system: ./system.md\n  rules: ./rules.md\n",
    };
    const harness = await loadHarness({ dir: await makeHarnessDir(files), kind: "builtin" });
    expect(harnessRules(harness)).toHaveLength(2);
    expect(renderSystemPrompt(harness)).toContain(
      "You are a careful assistant.\n\n## Rules\n- Show your work.",
    );
  });
});
