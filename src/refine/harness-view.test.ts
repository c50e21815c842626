import { describe, expect, it } from "vitest";
import { evidenceOf } from "../diagnose/testing/rollout-fixtures.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ChatRequest } from "../llm/types.js";
import { architectTemplate } from "./prompts/architect.js";
import { diagnosticianTemplate } from "./prompts/diagnostician.js";
import { editorTemplate } from "./prompts/editor.js";
import { skepticTemplate } from "./prompts/skeptic.js";
import { refine } from "./refine.js";
import {
  defaultScripts,
  makeHarness,
  makePattern,
  type RoleScripts,
  roleProvider,
} from "./testing/refine-fixtures.js";

type ShownFile = {
  path: string;
  editable: boolean;
  whole: boolean;
  content: string;
  lines?: { from: number; to: number; of: number };
};
type HarnessShown = {
  kind: string;
  editable: string[];
  systemPrompt?: string;
  rules?: string[];
  reference?: { fields: string[]; tools: string[]; modules: string[] };
  files?: ShownFile[];
};

const harnessOf = (request: ChatRequest) => evidenceOf(request).harness as HarnessShown;
const byRole = (calls: ChatRequest[], schema: string) =>
  calls.filter((call) => call.jsonSchema?.name === schema);

function withKnowledge(): LoadedHarness {
  const harness = makeHarness(["Be brief."]);
  const knowledge = Array.from(
    { length: 400 },
    (_, index) => `## Person ${index}\n- employer: Company ${index}\n`,
  ).join("\n");
  return { ...harness, files: { ...harness.files, "knowledge.md": knowledge } };
}

async function runWith(harness: LoadedHarness, editable: string[], scripts: RoleScripts = {}) {
  const provider = roleProvider({ ...defaultScripts, ...scripts });
  const record = await refine({
    patterns: [makePattern("p1")],
    harness,
    refiner: provider,
    rejected: [],
    skepticRounds: 1,
    editable,
  });
  return { provider, record };
}

describe("what the roles see of a built-in harness", () => {
  it("every role sees the harness reference, the system prompt, the rules and the editable globs", async () => {
    const { provider } = await runWith(withKnowledge(), ["harness.yaml", "system.md", "rules.md"]);
    for (const schema of ["diagnosis", "hms", "critique", "edits"]) {
      const shown = harnessOf(byRole(provider.calls, schema)[0]);
      expect(shown.editable, schema).toEqual(["harness.yaml", "system.md", "rules.md"]);
      expect(shown.systemPrompt, schema).toContain("You are a careful assistant.");
      expect(shown.systemPrompt, schema).toContain("## Rules\n- Be brief.");
      expect(shown.rules, schema).toEqual(["Be brief."]);
      expect(
        shown.reference?.fields.some((line) => /^agent_loop\.max_steps \(integer, 1–64/.test(line)),
      ).toBe(true);
      expect(
        shown.reference?.fields.some((line) => line.includes("one of drop_oldest | keep_task")),
      ).toBe(true);
      expect(shown.reference?.tools.join("\n")).toMatch(/calculator\(expression\)/);
      expect(shown.reference?.modules.join("\n")).toMatch(/^agent_loop: /m);
    }
  });

  it("the Editor sees the editable files whole and leaves a large non-editable knowledge file out", async () => {
    const harness = withKnowledge();
    const { provider } = await runWith(harness, ["harness.yaml", "system.md", "rules.md"]);
    const editor = byRole(provider.calls, "edits")[0];
    const shown = harnessOf(editor);
    expect(shown.files?.map((file) => [file.path, file.editable, file.whole])).toEqual([
      ["harness.yaml", true, true],
      ["rules.md", true, true],
      ["system.md", true, true],
    ]);
    expect(shown.files?.[0].content).toBe(harness.files["harness.yaml"]);
    const user = editor.messages[1].content ?? "";
    expect(user).not.toContain("Person 17");
  });
});

describe("role prompts", () => {
  it("name no fix of a particular world", () => {
    for (const template of [
      diagnosticianTemplate,
      architectTemplate,
      skepticTemplate,
      editorTemplate,
    ]) {
      expect(template).not.toMatch(/enable a tool|raise a budget|pin the task statement/i);
      expect(template).not.toMatch(/show a hint after tool errors|state the answer format/i);
      expect(template).not.toMatch(/tools\.calculator\.enabled|agent_loop\.max_steps = 8/);
    }
  });
});

function commandHarness(): LoadedHarness {
  const tools = Array.from(
    { length: 900 },
    (_, index) => `- tool_${index}: does thing number ${index} with care.`,
  ).join("\n");
  return {
    kind: "command",
    dir: "/nonexistent/agent",
    command: ["python3", "agent.py"],
    files: {
      "agent.py": "import json\nprint(json.dumps({'output': 'x'}))\n",
      "prompts/system.md": "You are a research agent. Use the tools.\n",
      "prompts/tools.md": `# Tools\n${tools}\n`,
    },
    hash: "c0",
  };
}

describe("what the roles see of a command harness", () => {
  const editable = ["prompts/*.md"];
  const scripts: RoleScripts = {
    hms: () => ({
      content: JSON.stringify({
        changes: [
          {
            module: "command",
            change: "tell the agent to end with an answer line",
            patterns: ["p1"],
            expectedEffect: "answers are extracted",
            regressionRisks: "none",
          },
        ],
      }),
    }),
    edits: () => ({ content: JSON.stringify({ edits: [] }) }),
  };

  it("the Diagnostician, Architect and Skeptic see the editable files, not only the argv", async () => {
    const { provider } = await runWith(commandHarness(), editable, scripts);
    for (const schema of ["diagnosis", "hms", "critique"]) {
      const shown = harnessOf(byRole(provider.calls, schema)[0]);
      expect(shown.kind).toBe("command");
      expect(shown.editable).toEqual(editable);
      const paths = shown.files?.map((file) => file.path) ?? [];
      expect(paths.slice(0, 2)).toEqual(["prompts/system.md", "prompts/tools.md"]);
      expect(shown.files?.[0].content).toBe("You are a research agent. Use the tools.\n");
    }
  });

  it("the Editor sees editable files first and whole; a file too large is shown with exact line numbers", async () => {
    const harness = commandHarness();
    const { provider } = await runWith(harness, editable, scripts);
    const shown = harnessOf(byRole(provider.calls, "edits")[0]);
    const files = shown.files ?? [];
    expect(files.map((file) => [file.path, file.editable])).toEqual([
      ["prompts/system.md", true],
      ["prompts/tools.md", true],
      ["agent.py", false],
    ]);
    expect(files[0]).toMatchObject({ whole: true, content: harness.files["prompts/system.md"] });
    const big = files[1];
    expect(big.whole).toBe(false);
    const total = harness.files["prompts/tools.md"].split("\n").length;
    expect(big.lines).toEqual({ from: 1, to: expect.any(Number), of: total });
    const shownLines = harness.files["prompts/tools.md"]
      .split("\n")
      .slice((big.lines?.from ?? 1) - 1, big.lines?.to);
    expect(big.content).toBe(shownLines.join("\n"));
  });

  it("refuses a write_file built from a cut view (sent back, then dropped with the reason); a replace_text on the shown part is kept", async () => {
    const harness = commandHarness();
    const { record } = await runWith(harness, editable, {
      ...scripts,
      edits: () => ({
        content: JSON.stringify({
          edits: [
            {
              module: "command",
              patterns: ["p1"],
              rationale: "rewrite the tool list",
              edit: {
                kind: "write_file",
                file: "prompts/tools.md",
                content: "# Tools\n- tool_0\n",
              },
            },
            {
              module: "command",
              patterns: ["p1"],
              rationale: "answer line",
              edit: {
                kind: "replace_text",
                file: "prompts/system.md",
                find: "Use the tools.",
                replace: "Use the tools. End with 'Answer: <value>'.",
              },
            },
          ],
        }),
      }),
    });
    expect(record.edits.map((edit) => edit.edit.kind)).toEqual(["replace_text"]);
    expect(record.droppedEdits).toEqual([
      expect.objectContaining({
        stage: "invalid",
        reason: expect.stringMatching(/prompts\/tools\.md.*lines 1–\d+ of \d+/),
      }),
    ]);
  });
});
