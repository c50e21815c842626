import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { BudgetTracker } from "./budget.js";
import { Journal } from "./journal.js";

async function open(outDir: string, budget: BudgetTracker) {
  return Journal.open({ outDir, runKey: "k", configHash: "h", strategy: "ecdysis", budget });
}

describe("Journal", () => {
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
    const header = { type: "header", runKey: "k", configHash: "h", strategy: "ecdysis" };
    const stage = { type: "stage", stage: "iteration-1/diagnose", output: {}, spend: {} };
    await writeFile(
      path.join(outDir, "journal.jsonl"),
      `${JSON.stringify(header)}\n${JSON.stringify(stage)}\n`,
    );
    const attempt = open(outDir, new BudgetTracker({}, () => 0));
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toThrow(/another version of Ecdysis \(journal format 1/);
  });
});
