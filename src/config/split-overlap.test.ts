import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { checkSplitOverlap, checkSplitOverlapYielding } from "./split-overlap.js";
import type { Task } from "./task-schema.js";

const tasks = (prefix: string, count: number, offset: number): Task[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${index}`,
    input: `Clerk ${prefix}${index + offset} packs ${index + offset} crates of ${(index * 7) % 97} jars. How many jars?`,
    expected: (index + offset) * ((index * 7) % 97),
    category: "count",
  }));

/** Whether a macrotask (as a signal handler is run) got its turn before `work` settled. */
async function turnedDuring(work: () => Promise<void>): Promise<boolean> {
  let settled = false;
  let turned = false;
  setImmediate(() => {
    turned = !settled;
  });
  await work().finally(() => {
    settled = true;
  });
  return turned;
}

describe("checkSplitOverlapYielding", () => {
  const splits = {
    train: { file: "train.jsonl", tasks: tasks("t", 2000, 0) },
    heldout: { file: "heldout.jsonl", tasks: tasks("h", 2000, 5000) },
  };

  it("lets the event loop turn while it checks thousands of tasks: Ctrl-C is handled mid-check", async () => {
    // The check ran as one synchronous block: at 8,000 train tasks SIGINT waited seconds for it.
    expect(await turnedDuring(() => checkSplitOverlapYielding(splits))).toBe(true);
    expect(() => checkSplitOverlap(splits)).not.toThrow();
  });

  it("refuses what checkSplitOverlap refuses, naming the same task", async () => {
    const copy = { ...splits.train.tasks[1500], id: "h-copy" };
    const leaking = {
      ...splits,
      heldout: { ...splits.heldout, tasks: [...splits.heldout.tasks, copy] },
    };
    const sync = (() => {
      try {
        checkSplitOverlap(leaking);
      } catch (error) {
        return error;
      }
    })();
    const yielding = await checkSplitOverlapYielding(leaking).catch((error: unknown) => error);
    expect(yielding).toBeInstanceOf(InputError);
    expect((yielding as Error).message).toBe((sync as Error).message);
    expect((yielding as Error).message).toContain("t1500");
  });
});
