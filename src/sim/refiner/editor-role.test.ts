import { describe, expect, it } from "vitest";
import { worldSchema } from "../world-schema.js";
import { errorGuidance, formatInstruction } from "./fixes.js";
import { refinerReply } from "./refiner-reply.js";

const world = (refiner: Record<string, unknown> = {}) =>
  worldSchema.parse({
    name: "t",
    seed: 3,
    families: [{ kind: "arithmetic", counts: { train: 1, heldout: 1 } }],
    deficiencies: {},
    refiner,
  });

function request(evidence: unknown, extra = "") {
  const content = `Evidence.\n\n\`\`\`json\n${JSON.stringify(evidence)}\n\`\`\`${extra}`;
  return {
    model: "sim-1",
    messages: [{ role: "user" as const, content }],
    tools: [],
    seed: 0,
    temperature: 0,
  };
}

const commandHarness = {
  kind: "command",
  editable: ["prompts/*.md"],
  command: ["python3", "agent.py"],
  files: [
    {
      path: "prompts/system.md",
      editable: true,
      whole: true,
      content: "You are a research agent.\nUse the tools you are given.\n",
    },
    { path: "agent.py", editable: false, whole: true, content: "print('x')\n" },
  ],
};

const failure = (output: string, events: string[], toolCalls: unknown[] = []) => ({
  id: "f1",
  task: "What is 12 times 7?",
  output,
  answer: null,
  events,
  toolCalls,
  steps: 1,
});

describe("the sim refiner on a command harness", () => {
  it("diagnoses prompt-level causes as sentences for the editable prompt file", () => {
    const reply = refinerReply(
      world(),
      request({
        patterns: [
          {
            id: "p1",
            name: "answer-format-drift",
            support: { tasks: 6, categories: 2 },
            examples: Array.from({ length: 5 }, () =>
              failure("So the result is **84**.", ["no-answer"]),
            ),
          },
        ],
        harness: commandHarness,
        rejected: [],
      }),
      "diagnosis",
    ) as { diagnoses: { rootCause: string; module: string }[] };
    expect(reply.diagnoses[0].module).toBe("command");
    expect(reply.diagnoses[0].rootCause).toContain(
      `Add to prompts/system.md: ${JSON.stringify(formatInstruction)}`,
    );
  });

  it("the Editor writes replace_text on the prompt file it is shown", () => {
    const reply = refinerReply(
      world(),
      request({
        hms: {
          changes: [
            {
              module: "command",
              change: `Add to prompts/system.md: ${JSON.stringify(errorGuidance)}`,
              patterns: ["p1"],
              expectedEffect: "retries after tool errors",
              regressionRisks: "",
            },
          ],
        },
        harness: commandHarness,
      }),
      "edits",
    ) as { edits: { module: string; edit: Record<string, string> }[] };
    expect(reply.edits).toEqual([
      expect.objectContaining({
        module: "command",
        edit: {
          kind: "replace_text",
          file: "prompts/system.md",
          find: "Use the tools you are given.",
          replace: `Use the tools you are given.\n${errorGuidance}`,
        },
      }),
    ]);
  });
});

describe("the plain-spoken sim refiner", () => {
  const plain = world({ style: "plainspoken", schemaSlips: 1 });

  it("words the same cause differently across failures", () => {
    const failures = Array.from({ length: 12 }, (_, index) => ({
      ...failure(`So the result is **${index}**.`, ["no-answer"]),
      id: `f${index}`,
      task: `What is ${index} times 7?`,
    }));
    const reply = refinerReply(plain, request({ failures }), "failure_notes") as {
      notes: { cause: string; note: string }[];
    };
    expect(new Set(reply.notes.map((note) => note.cause)).size).toBeGreaterThan(2);
    expect(new Set(reply.notes.map((note) => note.note)).size).toBeGreaterThan(1);
  });

  it("writes changes in prose that its Editor still carries out, with a slip it drops when asked to repair", () => {
    const harness = {
      kind: "builtin",
      editable: ["harness.yaml", "system.md", "rules.md"],
      config: { agent_loop: { max_steps: 3 }, prompt: { system: "system.md", rules: "rules.md" } },
      files: [{ path: "system.md", editable: true, whole: true, content: "You are helpful.\n" }],
    };
    const architect = refinerReply(
      plain,
      request({
        diagnoses: [
          {
            patternId: "p1",
            rootCause:
              "Chains need more turns than allowed. We should raise agent_loop.max_steps to 8.",
            module: "agent_loop",
          },
        ],
        objections: [],
        harness,
        rejected: [],
      }),
      "hms",
    ) as { changes: { change: string }[] };
    const change = architect.changes[0].change;
    expect(change).not.toBe("Set agent_loop.max_steps to 8");
    expect(change).toMatch(/p1/);
    expect(change).toContain("agent_loop.max_steps");
    const evidence = { hms: { changes: architect.changes }, harness };
    const first = refinerReply(plain, request(evidence), "edits") as { edits: unknown[] };
    expect(JSON.stringify(first.edits)).not.toEqual(
      JSON.stringify([{ edit: { kind: "set", path: "agent_loop.max_steps", value: 8 } }]),
    );
    const repaired = refinerReply(
      plain,
      request(evidence, "\n\nNote about your previous reply: fix it."),
      "edits",
    ) as { edits: { edit: unknown }[] };
    expect(repaired.edits[0].edit).toEqual({ kind: "set", path: "agent_loop.max_steps", value: 8 });
  });
});
