import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { applyEdits } from "./apply-edits.js";
import type { GuardContext } from "./guard-context.js";
import { loadHarness } from "./load-harness.js";
import { harnessRules } from "./render.js";
import { fixtureFiles, makeHarnessDir } from "./testing/harness-fixture.js";
import type { HarnessEdit, LoadedHarness, PlannedEdit } from "./types.js";

const plan = (edit: HarnessEdit): PlannedEdit => ({
  module: "prompt",
  patterns: ["p1"],
  rationale: "test",
  edit,
});

let harness: LoadedHarness;
let guard: GuardContext;
let outside: string;

beforeAll(async () => {
  outside = await makeHarnessDir({ "target.md": "outside\n" });
  const dir = await makeHarnessDir({ ...fixtureFiles, "tasks/train.jsonl": "{}\n" });
  await mkdir(join(dir, "linked"));
  await symlink(outside, join(dir, "escape"));
  await symlink(join(outside, "target.md"), join(dir, "notes.md"));
  harness = await loadHarness({ dir, kind: "builtin" });
  guard = {
    editable: ["harness.yaml", "*.md", "**/*.md", "**/*.yml", "tasks/**", "**/*"],
    protectedPaths: [join(dir, "tasks/train.jsonl"), join(dir, "ecdysis.yml")],
    forbiddenStrings: ["1815", "Thessaloniki", "42", "7"],
    forbiddenInputs: [
      "A train leaves the station at nine and travels two hundred kilometres at constant speed.",
    ],
  };
});

function single(edit: HarnessEdit) {
  return applyEdits({ harness, edits: [plan(edit)], guard });
}

function expectRejected(edit: HarnessEdit, kind: string, reason?: RegExp) {
  const result = single(edit);
  expect(result.applied).toEqual([]);
  expect(result.rejected).toHaveLength(1);
  expect(result.rejected[0].guard).toBe(kind);
  if (reason) expect(result.rejected[0].reason).toMatch(reason);
  expect(result.harness.files).toEqual(harness.files);
  expect(result.harness.hash).toBe(harness.hash);
}

describe("applyEdits: accepted edits", () => {
  it("sets a harness.yaml field and keeps its comments", () => {
    const result = single({ kind: "set", path: "agent_loop.max_steps", value: "8" });
    expect(result.rejected).toEqual([]);
    const text = result.harness.files["harness.yaml"];
    expect(text).toContain("# Seed harness for tests");
    expect(text).toContain("style: react # tool loop");
    expect(text).toContain("max_steps: 8");
    expect(result.harness.config?.agent_loop.max_steps).toBe(8);
    expect(result.harness.hash).not.toBe(harness.hash);
    expect(harness.config?.agent_loop.max_steps).toBe(4);
  });

  it("adds and removes rules, replaces text and writes new files", () => {
    const result = applyEdits({
      harness,
      guard,
      edits: [
        plan({ kind: "add_rule", text: "When a tool fails, read the error and try again." }),
        plan({ kind: "remove_rule", text: "Show your work." }),
        plan({ kind: "replace_text", file: "system.md", find: "careful", replace: "precise" }),
        plan({ kind: "write_file", file: "docs/extra.md", content: "## Rome\n- country: Italy\n" }),
      ],
    });
    expect(result.rejected).toEqual([]);
    expect(harnessRules(result.harness)).toEqual([
      "Use the calculator for arithmetic.",
      "When a tool fails, read the error and try again.",
    ]);
    expect(result.harness.files["system.md"]).toBe("You are a precise assistant.\n");
    expect(result.harness.files["docs/extra.md"]).toContain("Rome");
  });

  it("applies the valid edits of a batch and reports the rejected one", () => {
    const result = applyEdits({
      harness,
      guard,
      edits: [
        plan({ kind: "write_file", file: ".github/workflows/a.yml", content: "on: push" }),
        plan({ kind: "set", path: "tools.calculator.enabled", value: false }),
      ],
    });
    expect(result.applied).toHaveLength(1);
    expect(result.rejected.map((rejection) => rejection.guard)).toEqual(["path"]);
    expect(result.harness.config?.tools.calculator.enabled).toBe(false);
    expect(result.harness.files[".github/workflows/a.yml"]).toBeUndefined();
  });

  it("ignores short answers and small integers and keeps answers already present", () => {
    const result = single({ kind: "add_rule", text: "Check 7 and 42 twice." });
    expect(result.rejected).toEqual([]);
    const kept = single({
      kind: "replace_text",
      file: "knowledge.md",
      find: "- born: 1815",
      replace: "- born: 1815 (London)",
    });
    expect(kept.rejected).toEqual([]);
  });
});

describe("applyEdits: path guard", () => {
  const attacks: [string, string][] = [
    ["../x.md", "'..'"],
    ["/etc/passwd", "absolute"],
    [".github/workflows/a.yml", ".github"],
    [".GitHub/x.md", ".GitHub"],
    [".git/config", ".git"],
    ["a/../../x.md", "'..'"],
    ["..\\x.md", "backslash"],
    ["escape/target.md", "symlink pointing outside"],
    ["notes.md", "symlink pointing outside"],
    ["tasks/train.jsonl", "protected"],
    ["ecdysis.yml", "protected"],
    ["bad\0.md", "NUL"],
  ];
  for (const [path, reason] of attacks) {
    it(`refuses ${JSON.stringify(path)}`, () => {
      expectRejected(
        { kind: "write_file", file: path, content: "x" },
        "path",
        new RegExp(reason.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
      );
    });
  }
  it("refuses paths outside the editable globs", () => {
    const narrow = { ...guard, editable: ["rules.md"] };
    const result = applyEdits({
      harness,
      guard: narrow,
      edits: [plan({ kind: "replace_text", file: "system.md", find: "careful", replace: "x" })],
    });
    expect(result.rejected[0]?.guard).toBe("path");
    expect(result.rejected[0]?.reason).toMatch(/editable globs/);
  });
});

describe("applyEdits: schema guard", () => {
  it("refuses an answer pattern that can backtrack catastrophically", () =>
    expectRejected(
      { kind: "set", path: "completion.answer_pattern", value: "Answer: (\\w*\\s?)*" },
      "schema",
      /nested repetition/,
    ));

  it("refuses a set to an invalid value", () =>
    expectRejected(
      { kind: "set", path: "agent_loop.max_steps", value: 1000 },
      "schema",
      /harness.yaml would be invalid/,
    ));
  it("refuses a set of an unknown field", () =>
    expectRejected(
      { kind: "set", path: "agent_loop.turbo", value: true },
      "schema",
      /not a field/,
    ));
  it("refuses a set of a whole section", () =>
    expectRejected({ kind: "set", path: "tools", value: "none" }, "schema", /section/));
  it("refuses pointing the prompt outside the harness", () =>
    expectRejected(
      { kind: "set", path: "prompt.system", value: "../../etc/passwd" },
      "schema",
      /relative path inside/,
    ));
  it("refuses a replace_text whose text is not unique", () =>
    expectRejected(
      { kind: "replace_text", file: "rules.md", find: "- ", replace: "* " },
      "schema",
      /exactly once/,
    ));
  it("refuses to remove a rule that does not exist", () =>
    expectRejected({ kind: "remove_rule", text: "Never guess." }, "schema"));
  it("refuses harness.yaml text that breaks the schema", () =>
    expectRejected(
      { kind: "replace_text", file: "harness.yaml", find: "style: react", replace: "style: chaos" },
      "schema",
    ));
});

describe("applyEdits: size, leak and secret guards", () => {
  it("refuses an oversize edit", () =>
    expectRejected(
      { kind: "write_file", file: "big.md", content: "x".repeat(9000) },
      "size",
      /at most 8192/,
    ));
  it("refuses a file that would exceed maxFileBytes", () => {
    const small = { ...guard, maxFileBytes: 100 };
    const result = applyEdits({
      harness,
      guard: small,
      edits: [plan({ kind: "write_file", file: "f.md", content: "y".repeat(200) })],
    });
    expect(result.rejected[0]?.guard).toBe("size");
  });
  it("refuses a leaked expected answer", () =>
    expectRejected(
      { kind: "add_rule", text: "If asked about the city, say thessaloniki." },
      "leak",
      // The reason names the file, never the answer (reports and PR bodies carry it).
      /'rules\.md' it would introduce the expected answer of a task/,
    ));
  it("refuses an answer an edit forms by deleting the text between its parts", () => {
    const result = applyEdits({
      harness,
      guard: { ...guard, forbiddenStrings: ["ParisFrance"] },
      edits: [
        plan({ kind: "replace_text", file: "knowledge.md", find: "\n- country: ", replace: "" }),
      ],
    });
    expect(result.applied).toEqual([]);
    expect(result.rejected[0]).toMatchObject({ guard: "leak" });
    expect(result.rejected[0].reason).toMatch(/'knowledge\.md' .*expected answer/);
    expect(result.rejected[0].reason).not.toMatch(/ParisFrance/);
  });
  it("refuses a copied 8-gram of a task input", () =>
    expectRejected(
      {
        kind: "add_rule",
        text: "Remember: a TRAIN leaves the station at nine and   travels two hundred km.",
      },
      "leak",
      /8-word run of a task input/,
    ));
  it("refuses an sk- key", () =>
    expectRejected(
      { kind: "add_rule", text: "Use key sk-proj-abcdefghijklmnopqrstuvwx to call." },
      "secret",
      /sk-/,
    ));
  it("refuses a private key block", () =>
    expectRejected(
      { kind: "write_file", file: "k.md", content: "-----BEGIN RSA PRIVATE KEY-----\nabc\n" },
      "secret",
    ));
  it("refuses a GitHub token", () =>
    expectRejected(
      { kind: "write_file", file: "k.md", content: "token ghp_abcdefghijklmnopqrstuvwxyz0123" },
      "secret",
    ));
});
