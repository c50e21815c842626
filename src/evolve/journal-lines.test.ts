import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { BudgetTracker } from "./budget.js";
import { Journal } from "./journal.js";

// The line number each append was given (the kill failpoint and the warnings read it).
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

describe("Journal line numbers", () => {
  // Seen as a flaky reliability test: two stages finishing together were both numbered as the
  // same next line, so line 9's kill failpoint never fired and the run ended unkilled.
  it("gives stages that finish together consecutive lines, in the order they are written", async () => {
    const outDir = await mkdtemp(path.join(tmpdir(), "ecdysis-journal-lines-"));
    const journal = await Journal.open({
      outDir,
      runKey: "k",
      parts: {
        config: "c".repeat(64),
        strategy: "ecdysis",
        limit: "none",
        seedHarness: "s".repeat(64),
        trainTasks: "t".repeat(64),
        heldoutTasks: "h".repeat(64),
        models: "m".repeat(64),
        scorer: "x".repeat(64),
        ecdysis: "1.0.0",
      },
      budget: new BudgetTracker({}, () => 0),
    });
    await Promise.all(["a", "b", "c"].map((name) => journal.stage(name, async () => name)));
    await journal.stage("d", async () => "d");
    expect(numbered).toEqual([2, 3, 4, 5]);
  });
});
