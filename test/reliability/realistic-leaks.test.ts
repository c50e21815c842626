import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ecdysisConfigSchema, type LoadedConfig } from "../../src/config/config-schema.js";
import { loadTasks } from "../../src/config/load-tasks.js";
import type { Task } from "../../src/config/task-schema.js";
import { buildGuardContext } from "../../src/evolve/index.js";
import { applyEdits } from "../../src/harness/apply-edits.js";
import { guardedFiles } from "../../src/harness/content-guards.js";
import { assertHarnessSealed } from "../../src/harness/final-harness-guard.js";
import type { GuardContext } from "../../src/harness/guard-context.js";
import { loadHarness } from "../../src/harness/load-harness.js";
import type { HarnessEdit, LoadedHarness, PlannedEdit } from "../../src/harness/types.js";

// Issue #25: the forms a model plausibly writes when it copies an answer or a task into a rule,
// on the quickstart's own tasks and seed harness. Each of these got through before.

const quickstart = path.resolve(import.meta.dirname, "../../examples/quickstart");
let harness: LoadedHarness;
let guard: GuardContext;
let train: Task[];
let heldout: Task[];

beforeAll(async () => {
  train = await loadTasks(path.join(quickstart, "tasks/train.jsonl"));
  heldout = await loadTasks(path.join(quickstart, "tasks/heldout.jsonl"));
  harness = await loadHarness({ dir: path.join(quickstart, "harness"), kind: "builtin" });
  const config = ecdysisConfigSchema.parse({
    model: { provider: "sim", world: "quickstart", model: "sim-agent" },
    harness: { dir: "harness", editable: ["harness.yaml", "*.md"] },
    tasks: { train: "tasks/train.jsonl", heldout: "tasks/heldout.jsonl" },
  });
  const loaded: LoadedConfig = {
    config,
    path: `${quickstart}/ecdysis.yml`,
    root: quickstart,
    hash: "h",
  };
  guard = { ...buildGuardContext({ loaded, train, heldout }), seedFiles: guardedFiles(harness) };
});

const plan = (edit: HarnessEdit): PlannedEdit => ({
  module: "prompt",
  patterns: ["p1"],
  rationale: "test",
  edit,
});
const rule = (text: string): HarnessEdit => ({ kind: "add_rule", text });
const note = (file: string, content: string): HarnessEdit => ({
  kind: "write_file",
  file,
  content,
});

function refused(...edits: HarnessEdit[]): boolean {
  const result = applyEdits({ harness, edits: edits.map(plan), guard });
  expect(() => assertHarnessSealed({ seed: harness, final: result.harness, guard })).not.toThrow();
  return result.rejected.some((rejection) => rejection.guard === "leak");
}

const inputOf = (id: string) => [...train, ...heldout].find((task) => task.id === id)?.input ?? "";

describe("answers in the forms a model writes them", () => {
  it("reads numbers as values: separators, units glued on, a trailing .0", () => {
    // 4542 is a train answer, 287 and 1881 held-out answers.
    expect(refused(rule("Coresta Pellosta buys 4,542 items."))).toBe(true);
    expect(refused(rule("The total is 1 881 items."))).toBe(true);
    expect(refused(rule("Usually 287coins are left."))).toBe(true);
    expect(refused(rule("Expect 287.0 coins."))).toBe(true);
    expect(refused(rule("Expect 4'542 items."))).toBe(true);
  });

  it("folds the separators of a name: hyphen, underscore, none, case", () => {
    for (const form of ["Brimark-Works", "brimark_works", "BrimarkWorks", "BRIMARK WORKS"])
      expect(refused(rule(`The employer is usually ${form}.`))).toBe(true);
  });

  it("refuses a held-out answer spelled out or as one arithmetic step", () => {
    for (const form of [
      "two hundred eighty-seven",
      "7 times 41",
      "7 × 41",
      "280 + 7",
      "the product of 7 and 41",
      "seven times forty-one",
    ])
      expect(refused(rule(`Coins left: ${form}.`))).toBe(true);
  });

  it("refuses a small answer beside its task's name, and keeps ordinary small numbers", () => {
    // 60 is the answer of the train task about Oststa Halby; 14 of a held-out one.
    expect(refused(rule("Oststa Halby: 60"))).toBe(true);
    expect(
      refused(note("lookup.md", "| person | jars |\n|---|---|\n| Oststa Halby | 60 |\n")),
    ).toBe(true);
    expect(refused(note("lookup.md", "## Oststa Halby\n- jars per stall: 60\n"))).toBe(true);
    expect(refused(note("knowledge-extra.md", "## Norvin Lunven\n- parcel: 12 kg\n"))).toBe(true);
    for (const text of [
      "Use 12 hours when a day shift is meant.",
      "Allow up to 60 seconds per step and at most 3 tool calls.",
      "Divide by 2 when the rest is shared between 2 stalls.",
    ])
      expect(refused(rule(text))).toBe(false);
  });
});

describe("a task input reworded or in pieces", () => {
  // Rewordings that keep no 8-word run of the input (the verbatim check's unit).
  it("refuses a held-out input with its clauses swapped, a synonym, or a word dropped", () => {
    expect(inputOf("arithmetic-h0-000")).toMatch(/^Haldane Zelalis saves 27 coins a week/);
    expect(inputOf("unit-conversion-h1-000")).toMatch(/^Ysemir Ysruvin spent 26 hours/);
    expect(inputOf("multi-hop-h2-006")).toBe(
      "Using the registry, what is the mentor of Lunlla Ashmir?",
    );
    const forms = [
      "How many coins remain? Haldane Zelalis puts aside 27 coins each week for 31 weeks, then uses 550 coins on a lantern.",
      "How many minutes is that? Ysemir Ysruvin spent 26 hours and 3 minutes at the workshop.",
      "Ysemir Ysruvin passed 26 hours and 3 minutes in the workshop. How many minutes is that?",
      "Ysemir Ysruvin spent 26 hours and 3 minutes at workshop. How many minutes is that?",
      "Using the registry, what is the mentor for Lunlla Ashmir?",
      "Using registry, what is the mentor of Lunlla Ashmir?",
    ];
    for (const form of forms) expect(refused(rule(form))).toBe(true);
  });

  it("refuses a held-out input split across two files in runs of under 8 words", () => {
    const words = inputOf("arithmetic-h0-002").split(" ");
    const pieces = [0, 7, 14, 21].map((at) => words.slice(at, at + 7).join(" "));
    expect(
      refused(
        rule(`Remember: ${pieces[0]} … ${pieces[2]}`),
        note("notes.md", `${pieces[1]}\n\n${pieces[3]}\n`),
      ),
    ).toBe(true);
  });

  it("refuses a multi-hop question reworded although the seed's registry names the person", () => {
    expect(inputOf("multi-hop-t2-000")).toBe(
      "Using the registry, what is the employer of the mayor of the birthplace of the mentor of Ostsathos Farel?",
    );
    expect(harness.files["knowledge.md"]).toContain("## Ostsathos Farel");
    const reworded =
      "Look up who employs the mayor of the birthplace for Ostsathos Farel's mentor in the registry.";
    expect(refused(rule(reworded))).toBe(true);
    // The name alone is a one-task hint: flagged for the reviewer, not refused.
    expect(refused(rule("When a question mentions Ostsathos Farel, re-read it."))).toBe(false);
  });

  it("keeps general rules about the same kinds of task", () => {
    for (const text of [
      "When a task asks how many items someone buys in total, multiply each box count by the items per box and add the products.",
      "Using the registry, resolve the chain one relation at a time: the mentor, then the birthplace, then the mayor and the employer.",
      "For a date some days later or earlier, add or subtract the days and give the date as YYYY-MM-DD.",
      "Question: what is the tracking code of the parcel? Read the sentence of the shipping note about that parcel.",
      "If someone saves coins a week for some weeks then spends coins on a lantern, the coins left are weekly coins times weeks minus the spending.",
    ])
      expect(refused(rule(text))).toBe(false);
  });
});
