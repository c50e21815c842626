import { appendFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { InputError } from "../errors/input-error.js";
import { BudgetTracker } from "./budget.js";
import { Journal } from "./journal.js";
import type { RunKeyParts } from "./run-key.js";

// The line number each append was given (the kill failpoint and the warnings read it); the
// append itself is the real one.
const numbered = vi.hoisted(() => [] as number[]);
vi.mock("./journal-file.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./journal-file.js")>();
  return {
    ...actual,
    appendJournalLine: (file: string, text: string, line: number) => {
      numbered.push(line);
      return actual.appendJournalLine(file, text, line);
    },
  };
});

const parts: RunKeyParts = {
  config: "c".repeat(64),
  strategy: "ecdysis",
  limit: "none",
  seedHarness: "s".repeat(64),
  trainTasks: "t".repeat(64),
  heldoutTasks: "h".repeat(64),
  models: "m".repeat(64),
  scorer: "x".repeat(64),
  ecdysis: "1.0.0",
};

async function open(
  outDir: string,
  budget: BudgetTracker,
  extra: Partial<Parameters<typeof Journal.open>[0]> = {},
) {
  return Journal.open({ outDir, runKey: "k", parts, budget, ...extra });
}

const file = (outDir: string) => path.join(outDir, "journal.jsonl");

describe("Journal", () => {
  // Seen as a flaky reliability test: two stages finishing together were both numbered as the
  // same next line, so line 9's kill failpoint never fired and the run ended unkilled.
  it("gives stages that finish together consecutive lines, in the order they are written", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "ecdysis-journal-lines-"));
    const journal = await open(outDir, new BudgetTracker({}, () => 0));
    numbered.length = 0;
    await Promise.all(["a", "b", "c"].map((name) => journal.stage(name, async () => name)));
    await journal.stage("d", async () => "d");
    expect(numbered).toEqual([2, 3, 4, 5]);
  });

  it("replays finished stages, and counts the spend of every one of them at open", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "ecdysis-journal-"));
    const budget = new BudgetTracker({}, () => 0);
    const first = await open(outDir, budget);
    await first.stage("a", async () => {
      budget.add({ rollouts: 2 });
      return "A";
    });
    // A background stage the resumed run will not start again.
    await first.stage("b-ahead", async () => {
      budget.add({ llmCalls: 3 });
      return null;
    });

    const resumedBudget = new BudgetTracker({}, () => 0);
    const resumed = await open(outDir, resumedBudget);
    expect(resumedBudget.snapshot()).toMatchObject({ rollouts: 2, llmCalls: 3 });
    let ran = false;
    expect(
      await resumed.stage("a", async () => {
        ran = true;
        return "again";
      }),
    ).toBe("A");
    expect(ran).toBe(false);
    expect(resumedBudget.snapshot()).toMatchObject({ rollouts: 2, llmCalls: 3 });
  });

  it("replays the training clock of the last finished stage, not the sum of concurrent stages' times", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "ecdysis-journal-"));
    let now = 0;
    const first = await open(outDir, new BudgetTracker({}, () => now));
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const both = Promise.all([first.stage("a", () => gate), first.stage("b", () => gate)]);
    now = 100;
    release();
    await both;
    const resumed = new BudgetTracker({}, () => 500);
    await open(outDir, resumed);
    expect(resumed.snapshot().wallMs).toBe(100);
  });

  it("refuses a journal written by another version of Ecdysis instead of replaying its outputs", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "ecdysis-journal-"));
    const header = { type: "header", format: 2, runKey: "k", configHash: "h", strategy: "ecdysis" };
    const stage = { type: "stage", stage: "iteration-1/diagnose", output: {}, spend: {} };
    await writeFile(
      path.join(outDir, "journal.jsonl"),
      `${JSON.stringify(header)}\n${JSON.stringify(stage)}\n`,
    );
    const attempt = open(outDir, new BudgetTracker({}, () => 0));
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toThrow(/another version of Ecdysis \(journal format 2/);
  });

  it("refuses a journal of other inputs, naming each part that changed and the way out", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "ecdysis-journal-"));
    await open(outDir, new BudgetTracker({}, () => 0));
    const changed = { ...parts, seedHarness: "n".repeat(64), limit: "5", ecdysis: "1.1.0" };
    const attempt = open(outDir, new BudgetTracker({}, () => 0), { runKey: "k2", parts: changed });
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toThrow(
      /line 1: .*the seed harness \(ssssssssssss → nnnnnnnnnnnn\); --limit \(none → 5\); the Ecdysis version \(1\.0\.0 → 1\.1\.0\).*--restart.*fresh --out/,
    );
    // --restart discards it and starts over.
    const restarted = await open(outDir, new BudgetTracker({}, () => 0), {
      runKey: "k2",
      parts: changed,
      restart: true,
    });
    expect(restarted.finished()).toEqual([]);
    expect(JSON.parse((await readFile(file(outDir), "utf8")).split("\n")[0])).toMatchObject({
      runKey: "k2",
      parts: changed,
    });
  });

  it("a damaged header or a middle line of the wrong shape is an InputError naming the line", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "ecdysis-journal-"));
    await writeFile(file(outDir), '{"type":"head\n');
    await expect(open(outDir, new BudgetTracker({}, () => 0))).rejects.toThrow(
      /journal\.jsonl: line 1: is not valid JSON: the run journal's header is damaged.*--restart/,
    );
    const first = await open(outDir, new BudgetTracker({}, () => 0), { restart: true });
    await first.stage("a", async () => "A");
    await first.stage("b", async () => "B");
    const lines = (await readFile(file(outDir), "utf8")).split("\n");
    lines[1] = JSON.stringify({ type: "stage", stage: "a", output: "A", spend: "lots" });
    await writeFile(file(outDir), lines.join("\n"));
    const shape = open(outDir, new BudgetTracker({}, () => 0));
    await expect(shape).rejects.toBeInstanceOf(InputError);
    await expect(shape).rejects.toThrow(/line 2: 'spend': is not a stage entry/);
    lines[1] = "not json at all";
    await writeFile(file(outDir), lines.join("\n"));
    await expect(open(outDir, new BudgetTracker({}, () => 0))).rejects.toThrow(
      /line 2: is not valid JSON/,
    );
  });

  it("drops a last line cut short by a kill (with a warning), cuts the file back and runs that stage again", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "ecdysis-journal-"));
    const first = await open(outDir, new BudgetTracker({}, () => 0));
    await first.stage("a", async () => "A");
    const whole = JSON.stringify({ type: "stage", stage: "b", output: "B", spend: {} });
    await appendFile(file(outDir), whole.slice(0, 20));
    const warnings: string[] = [];
    const resumed = await open(outDir, new BudgetTracker({}, () => 0), {
      warn: (message) => warnings.push(message),
    });
    expect(warnings).toEqual([expect.stringMatching(/line 3 was cut short .* runs again/)]);
    expect(resumed.finished()).toEqual(["a"]);
    let ran = false;
    await resumed.stage("b", async () => {
      ran = true;
      return "B2";
    });
    expect(ran).toBe(true);
    const lines = (await readFile(file(outDir), "utf8")).trim().split("\n");
    expect(lines.map((line) => JSON.parse(line).stage ?? "header")).toEqual(["header", "a", "b"]);
    // A whole last line that lost only its newline is kept, and the newline restored.
    await writeFile(file(outDir), lines.join("\n"));
    const again = await open(outDir, new BudgetTracker({}, () => 0));
    expect(again.finished()).toEqual(["a", "b"]);
    await again.stage("c", async () => "C");
    expect((await readFile(file(outDir), "utf8")).trim().split("\n")).toHaveLength(4);
  });

  it("recomputes a replayed output that does not match its stage's schema, and counts both spends", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "ecdysis-journal-"));
    const budget = new BudgetTracker({}, () => 0);
    const first = await open(outDir, budget);
    await first.stage("a", async () => {
      budget.add({ rollouts: 1 });
      return { count: "three" };
    });
    const warnings: string[] = [];
    const resumedBudget = new BudgetTracker({}, () => 0);
    const resumed = await open(outDir, resumedBudget, {
      warn: (message) => warnings.push(message),
    });
    const schema = z.object({ count: z.number() });
    const value = await resumed.stage(
      "a",
      async () => {
        resumedBudget.add({ rollouts: 2 });
        return { count: 3 };
      },
      { schema },
    );
    expect(value).toEqual({ count: 3 });
    expect(warnings).toEqual([
      expect.stringMatching(
        /line 2: the recorded output of stage 'a' is not valid \(count: .*\); the stage runs again/,
      ),
    ]);
    const third = await open(outDir, new BudgetTracker({}, () => 0));
    expect(await third.stage("a", async () => ({ count: 0 }), { schema })).toEqual({ count: 3 });
    const replayed = new BudgetTracker({}, () => 0);
    await open(outDir, replayed);
    expect(replayed.snapshot().rollouts).toBe(3);
  });
});
