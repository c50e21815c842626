import { describe, expect, it } from "vitest";
import { evidenceOf } from "../diagnose/testing/rollout-fixtures.js";
import { applyEdits } from "../harness/apply-edits.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ChatRequest } from "../llm/types.js";
import { refine } from "./refine.js";
import {
  defaultScripts,
  makeHarness,
  makePattern,
  type RoleScripts,
  roleProvider,
} from "./testing/refine-fixtures.js";

const json = (value: unknown) => ({ content: JSON.stringify(value) });
const editable = ["harness.yaml", "system.md", "rules.md"];

function hmsOf(...changes: string[]) {
  return () =>
    json({
      changes: changes.map((change) => ({
        module: "prompt",
        change,
        patterns: ["p1"],
        expectedEffect: "fewer failures",
        regressionRisks: "low",
      })),
    });
}

async function run(scripts: RoleScripts, harness: LoadedHarness = makeHarness()) {
  const provider = roleProvider({ ...defaultScripts, ...scripts });
  const record = await refine({
    patterns: [makePattern("p1")],
    harness,
    refiner: provider,
    rejected: [],
    skepticRounds: 1,
    editable,
  });
  const editorCalls = provider.calls.filter((call) => call.jsonSchema?.name === "edits");
  return { provider, record, editorCalls };
}

const askedChange = (request: ChatRequest) =>
  (evidenceOf(request) as { hms: { changes: { change: string }[] } }).hms.changes[0].change;
const shownFile = (request: ChatRequest, path: string) =>
  (
    evidenceOf(request) as { harness: { files: { path: string; content: string }[] } }
  ).harness.files.find((file) => file.path === path)?.content;

describe("Editor: harmless slips are repaired, not dropped", () => {
  it("strips an extra key, reads 'true' as a boolean, old/new as find/replace, and a missing edit wrapper", async () => {
    const { record, editorCalls } = await run({
      edits: () =>
        json({
          edits: [
            {
              module: "tools",
              patterns: ["p1"],
              rationale: "offer the calculator",
              edit: {
                kind: "set",
                file: "harness.yaml",
                path: "tools.calculator.enabled",
                value: "true",
              },
            },
            {
              module: "prompt",
              patterns: ["p1"],
              rationale: "state the answer line",
              edit: {
                kind: "replace_text",
                file: "system.md",
                old: "You are a careful assistant.",
                new: "You are a careful assistant. End with 'Answer: <value>'.",
              },
            },
            {
              module: "agent_loop",
              patterns: ["p1"],
              rationale: "more turns",
              kind: "set",
              path: "agent_loop.max_steps",
              value: "8",
            },
          ],
        }),
    });
    expect(editorCalls).toHaveLength(1);
    expect(record.edits.map((edit) => edit.edit)).toEqual([
      { kind: "set", path: "tools.calculator.enabled", value: true },
      {
        kind: "replace_text",
        file: "system.md",
        find: "You are a careful assistant.",
        replace: "You are a careful assistant. End with 'Answer: <value>'.",
      },
      { kind: "set", path: "agent_loop.max_steps", value: 8 },
    ]);
    expect(record.droppedEdits).toEqual([]);
  });
});

describe("Editor: invalid edits go back for repair with their issues", () => {
  it("re-asks with the issues of the edit, and keeps the corrected edit", async () => {
    const { record, editorCalls } = await run({
      edits: (_request, nth) =>
        json({
          edits: [
            {
              module: "prompt",
              patterns: ["p1"],
              rationale: "answer line",
              edit:
                nth === 0
                  ? {
                      kind: "replace_text",
                      file: "system.md",
                      find: "You are a helpful bot.",
                      replace: "x",
                    }
                  : {
                      kind: "replace_text",
                      file: "system.md",
                      find: "You are a careful assistant.",
                      replace: "You are a careful assistant. Always end with 'Answer: <value>'.",
                    },
            },
          ],
        }),
    });
    expect(editorCalls).toHaveLength(2);
    const note = editorCalls[1].messages[1].content ?? "";
    expect(note).toMatch(/edits\.0\.edit\.find/);
    expect(note).toMatch(/does not occur in 'system\.md'/);
    expect(record.edits).toHaveLength(1);
    expect(record.droppedEdits).toEqual([]);
  });

  it("after the bounded repairs keeps the valid edits and lists the invalid ones with their issues", async () => {
    const { record, editorCalls } = await run({
      edits: () =>
        json({
          edits: [
            {
              module: "prompt",
              patterns: ["p1"],
              rationale: "plan",
              edit: { kind: "add_rule", text: "Plan the lookups before answering." },
            },
            {
              module: "prompt",
              patterns: ["p1"],
              rationale: "shell",
              edit: { kind: "shell", command: "rm -rf /" },
            },
            {
              module: "agent_loop",
              patterns: ["p1"],
              rationale: "many steps",
              edit: { kind: "set", path: "agent_loop.max_steps", value: 100 },
            },
          ],
        }),
    });
    expect(editorCalls).toHaveLength(3);
    expect(record.edits.map((edit) => edit.edit.kind)).toEqual(["add_rule"]);
    expect(record.droppedEdits.map((dropped) => [dropped.stage, dropped.change])).toEqual([
      ["invalid", 0],
      ["invalid", 0],
    ]);
    expect(record.droppedEdits[0].reason).toMatch(/kind/);
    expect(record.droppedEdits[1].reason).toMatch(/agent_loop\.max_steps.*(64|at most)/);
    expect(record.invalidEdits).toHaveLength(2);
  });

  it("lists the change whose reply stayed unusable", async () => {
    const { record } = await run({
      hms: hmsOf("rule one", "rule two"),
      edits: (request) =>
        askedChange(request) === "rule two"
          ? { content: "Sorry, no JSON." }
          : json({
              edits: [
                {
                  module: "prompt",
                  patterns: ["p1"],
                  rationale: "r",
                  edit: { kind: "add_rule", text: "Rule one." },
                },
              ],
            }),
    });
    expect(record.edits).toHaveLength(1);
    expect(record.droppedEdits).toEqual([
      expect.objectContaining({
        stage: "dropped",
        change: 1,
        reason: expect.stringMatching(/editor/),
      }),
    ]);
  });
});

describe("Editor: the edits of one HMS compose", () => {
  const original = "You are a careful assistant.\n";
  const writeSystem = (content: string) => ({
    module: "prompt",
    patterns: ["p1"],
    rationale: "rewrite",
    edit: { kind: "write_file", file: "system.md", content },
  });

  it("two changes that rewrite the same file: the second is re-drafted on the first's result, which keeps both", async () => {
    const { record, editorCalls } = await run({
      hms: hmsOf("state the answer format", "ask to use the tools"),
      edits: (request) => {
        const shown = shownFile(request, "system.md") ?? "";
        if (askedChange(request) === "state the answer format")
          return json({ edits: [writeSystem(`${shown}End with 'Answer: <value>'.\n`)] });
        return json({ edits: [writeSystem(`${shown}Use the tools you are given.\n`)] });
      },
    });
    expect(editorCalls).toHaveLength(3);
    const redraft = editorCalls[2];
    expect(askedChange(redraft)).toBe("ask to use the tools");
    expect(shownFile(redraft, "system.md")).toBe(`${original}End with 'Answer: <value>'.\n`);
    const applied = applyEdits({
      harness: makeHarness(),
      edits: record.edits,
      guard: { editable, protectedPaths: [], forbiddenStrings: [], forbiddenInputs: [] },
    });
    expect(applied.rejected).toEqual([]);
    expect(applied.harness.files["system.md"]).toBe(
      `${original}End with 'Answer: <value>'.\nUse the tools you are given.\n`,
    );
  });

  it("refuses, with a reason, a second write that would still overwrite the first", async () => {
    const { record } = await run({
      hms: hmsOf("state the answer format", "ask to use the tools"),
      edits: (request) =>
        askedChange(request) === "state the answer format"
          ? json({ edits: [writeSystem(`${original}End with 'Answer: <value>'.\n`)] })
          : json({ edits: [writeSystem(`${original}Use the tools you are given.\n`)] }),
    });
    expect(record.edits.map((edit) => edit.edit)).toEqual([
      {
        kind: "write_file",
        file: "system.md",
        content: `${original}End with 'Answer: <value>'.\n`,
      },
    ]);
    expect(record.droppedEdits).toEqual([
      expect.objectContaining({
        stage: "refused",
        change: 1,
        reason: expect.stringMatching(/overwrite.*change 1/),
      }),
    ]);
  });

  it("a replace_text whose find an earlier change rewrote is re-drafted on the new text, and dropped with the reason if it stays stale", async () => {
    const replace = (find: string, replaceWith: string) => ({
      module: "prompt",
      patterns: ["p1"],
      rationale: "r",
      edit: { kind: "replace_text", file: "system.md", find, replace: replaceWith },
    });
    const { record, editorCalls } = await run({
      hms: hmsOf("be precise", "be brief"),
      edits: (request) =>
        askedChange(request) === "be precise"
          ? json({ edits: [replace("careful assistant", "precise assistant")] })
          : json({ edits: [replace("careful assistant", "brief assistant")] }),
    });
    // Two drafts side by side, then the re-draft and its two repairs (its find is checked
    // against the text it was shown, which no longer has it).
    expect(editorCalls).toHaveLength(5);
    expect(shownFile(editorCalls[2], "system.md")).toBe("You are a precise assistant.\n");
    expect(record.edits).toHaveLength(1);
    expect(record.droppedEdits).toEqual([
      expect.objectContaining({
        stage: "invalid",
        change: 1,
        reason: expect.stringMatching(/find/),
      }),
    ]);
  });

  it("two set edits of the same field with different values: the second is refused", async () => {
    const set = (value: number) => ({
      module: "agent_loop",
      patterns: ["p1"],
      rationale: "steps",
      edit: { kind: "set", path: "agent_loop.max_steps", value },
    });
    const { record } = await run({
      hms: hmsOf("more steps", "even more steps"),
      edits: (request) => json({ edits: [set(askedChange(request) === "more steps" ? 8 : 12)] }),
    });
    expect(record.edits.map((edit) => edit.edit)).toEqual([
      { kind: "set", path: "agent_loop.max_steps", value: 8 },
    ]);
    expect(record.droppedEdits[0]).toMatchObject({ stage: "refused", change: 1 });
    expect(record.droppedEdits[0].reason).toMatch(/agent_loop\.max_steps/);
  });
});
