import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadTasks } from "../../src/config/load-tasks.js";
import { checkSplitOverlap } from "../../src/config/split-overlap.js";
import type { Task } from "../../src/config/task-schema.js";
import { InputError } from "../../src/errors/input-error.js";
import { bundledWorlds, loadWorld } from "../../src/sim/index.js";
import { generateWorld } from "../../src/sim/task-generation.js";

// Issue #25: a held-out input copied into the train file with a small change passed the split
// check (exact after case and spacing only). Near-duplicates are now found on normal-form word
// shingles; distinct tasks of the bundled worlds, even of one template, are never taken for one.

const quickstart = path.resolve(import.meta.dirname, "../../examples/quickstart/tasks");
let train: Task[];
let heldout: Task[];

beforeAll(async () => {
  train = await loadTasks(path.join(quickstart, "train.jsonl"));
  heldout = await loadTasks(path.join(quickstart, "heldout.jsonl"));
});

function check(extra: Task): void {
  checkSplitOverlap({
    train: { file: "tasks/train.jsonl", tasks: [...train, extra] },
    heldout: { file: "tasks/heldout.jsonl", tasks: heldout },
  });
}

describe("near-duplicate inputs across the splits", () => {
  const forms: [string, (input: string) => string][] = [
    ["an extra period", (input) => `${input}.`],
    ["a 'Question:' prefix", (input) => `Question: ${input}`],
    ["one word changed", (input) => input.replace("How many", "What number of")],
    ["an HTML entity", (input) => input.replace("'s", "&#39;s").replace(" ", "&nbsp;")],
  ];
  it.each(forms)("refuses a held-out input copied with %s, naming both tasks", (_name, change) => {
    const source = heldout.find((task) => task.id === "unit-conversion-h1-001") as Task;
    expect(source.input).toBe(
      "Senzo Tharvezo's recipe needs 47.7 kilograms of flour. How many grams is that?",
    );
    const copy = { ...source, id: "copied", input: change(source.input) };
    expect(copy.input).not.toBe(source.input);
    expect(() => check(copy)).toThrow(InputError);
    expect(() => check(copy)).toThrow(
      /task 'copied' has nearly the same input as held-out task 'unit-conversion-h1-001'/,
    );
  });

  it("keeps a task of the same template with other names and numbers", () => {
    const other = {
      ...train[0],
      id: "other",
      input: "Ashby Valrel's recipe needs 12.5 kilograms of flour. How many grams is that?",
    };
    expect(() => check(other)).not.toThrow();
  });

  it("keeps a task that asks of another thing with another answer (one word apart is not a copy)", () => {
    // A user's own small set: "…symbol of gold?" (Au) in train beside "…symbol of iron?" (Fe)
    // held out share most of their words, but the refiner learns nothing of the held-out answer.
    const task = (id: string, input: string, expected: string): Task => ({
      ...train[0],
      id,
      input,
      expected,
    });
    const splits = (trainInput: string, expected: string) => ({
      train: {
        file: "train.jsonl",
        tasks: [task("t0", trainInput, expected), task("t1", "Who wrote Hamlet?", "Shakespeare")],
      },
      heldout: {
        file: "heldout.jsonl",
        tasks: [
          task("h0", "What is the chemical symbol of iron?", "Fe"),
          task("h1", "What is the capital of Italy?", "Rome"),
        ],
      },
    });
    expect(() =>
      checkSplitOverlap(splits("What is the chemical symbol of gold?", "Au")),
    ).not.toThrow();
    // The same near-copy with the held-out answer is refused.
    expect(() => checkSplitOverlap(splits("What is the chemical symbol of  iron ?", "Fe"))).toThrow(
      /nearly the same input/,
    );
  });

  it("finds no near-duplicate between the splits of any bundled world, seeds 1 to 10", async () => {
    for (const name of bundledWorlds()) {
      const world = await loadWorld(name);
      for (let seed = 1; seed <= 10; seed += 1) {
        const generated = generateWorld({ ...world, seed });
        expect(() =>
          checkSplitOverlap({
            train: { file: `${name}-${seed}/train.jsonl`, tasks: generated.train },
            heldout: { file: `${name}-${seed}/heldout.jsonl`, tasks: generated.heldout },
          }),
        ).not.toThrow();
      }
    }
  }, 120_000);
});
