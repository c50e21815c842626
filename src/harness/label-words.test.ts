import { describe, expect, it } from "vitest";
import type { Task } from "../config/task-schema.js";
import { contentRules, introducedContent, introducedLabels } from "./content-guards.js";
import { labelWords } from "./label-words.js";

function task(id: string, input: string, expected: unknown): Task {
  return { id, input, expected: expected as Task["expected"], category: "default" };
}

const many = (count: number, expected: unknown, prefix = "t") =>
  Array.from({ length: count }, (_, index) =>
    task(`${prefix}${index}`, `Question ${prefix} ${index}?`, expected),
  );

describe("labelWords", () => {
  it("counts a common answer over train tasks only, at least 3 and 5% of them", () => {
    expect(labelWords({ train: many(3, "positive"), heldout: [] })).toEqual([
      { text: "positive", why: "common-answer" },
    ]);
    expect(labelWords({ train: many(2, "positive"), heldout: [] })).toEqual([]);
    // Held-out tasks never count: the refinement did not see them.
    expect(labelWords({ train: many(1, "positive"), heldout: many(9, "positive", "h") })).toEqual(
      [],
    );
    // 3 of 100 train tasks is under 5%: a repeated distinctive answer, not a label.
    const hundred = [
      ...many(3, "Waterloo"),
      ...many(97, "other", "u").map((t, i) => ({ ...t, expected: `a${i}` })),
    ];
    expect(labelWords({ train: hundred, heldout: [] }).map((word) => word.text)).not.toContain(
      "Waterloo",
    );
  });

  it("compares case- and spacing-insensitively and reads every answer of a list", () => {
    const train = [task("a", "q1", "Yes"), task("b", "q2", " yes "), task("c", "q3", ["YES", "y"])];
    expect(labelWords({ train, heldout: [] })).toEqual([{ text: "Yes", why: "common-answer" }]);
  });

  it("takes choices from the config's scorer and the train tasks' scorers", () => {
    const own = {
      ...task("a", "Pick one", "amber"),
      scorer: { kind: "choice" as const, choices: ["amber", "cobalt"] },
    };
    const words = labelWords({ train: [own], heldout: [task("h", "Pick", "cobalt")] });
    expect(words).toEqual([
      { text: "amber", why: "choice" },
      { text: "cobalt", why: "choice" },
    ]);
  });

  it("finds a word of the inputs only in a task that does not expect it, as a whole token", () => {
    const train = [
      task("a", "Name the river through Vantor.", "Vantor"),
      task("b", "Nonetheless, say it.", "x"),
    ];
    // 'Vantor' is only in its own task's input; 'none' only inside 'Nonetheless'.
    expect(labelWords({ train, heldout: [task("h", "q", "none")] })).toEqual([]);
    const other = [...train, task("c", "Is Vantor a city?", "no")];
    expect(labelWords({ train: other, heldout: [] })).toEqual([
      { text: "Vantor", why: "in-inputs" },
    ]);
  });
});

describe("content rules with label words", () => {
  const guard = {
    editable: ["*.md"],
    protectedPaths: [],
    forbiddenStrings: ["yes", "Port Varnaby"],
    forbiddenInputs: [],
    labelWords: [{ text: "YES", why: "common-answer" as const }],
  };

  it("refuses the other answers and flags only the label words an edit adds", () => {
    const rules = contentRules(guard);
    const after = "- Answer yes or no.\n";
    expect(introducedContent({ before: "", after, rules })).toBeNull();
    expect(introducedLabels({ before: "", after, rules })).toEqual([
      { text: "YES", why: "common-answer" },
    ]);
    // Already there before the edit: nothing new to flag.
    expect(introducedLabels({ before: "Say yes.", after: "Say yes, kindly.", rules })).toEqual([]);
    expect(introducedContent({ before: "", after: "Say Port Varnaby.", rules })?.guard).toBe(
      "leak",
    );
  });

  it("flags a name only one train input carries, and never lets it exempt an answer", () => {
    const train = [
      task("a", "Which letter did Rinmark Faolla sign?", "the third"),
      task("b", "Who wrote to Ada Quill?", "Ada Quill"),
      task("c", "Name the harbour.", "Port Varnaby"),
    ];
    const words = labelWords({ train, heldout: [] });
    expect(words).toEqual([{ text: "Rinmark Faolla", why: "one-task" }]);
    const rules = contentRules({
      ...guard,
      forbiddenStrings: ["Ada Quill", "Rinmark Faolla"],
      labelWords: words,
    });
    const hint = "- When a question mentions Rinmark Faolla, re-read every detail.\n";
    // Allowed (a name can be an example), shown to the reviewer as a hint for one task …
    expect(introducedLabels({ before: "", after: hint, rules })).toEqual([
      { text: "Rinmark Faolla", why: "one-task" },
    ]);
    // … but an answer that is also such a name stays a leak.
    expect(introducedContent({ before: "", after: hint, rules })?.guard).toBe("leak");
    expect(introducedContent({ before: "", after: "Mention Ada Quill.", rules })?.guard).toBe(
      "leak",
    );
  });

  it("refuses every answer when the context names no label words", () => {
    const rules = contentRules({ ...guard, labelWords: undefined });
    expect(introducedContent({ before: "", after: "Answer yes.", rules })?.guard).toBe("leak");
    expect(introducedLabels({ before: "", after: "Answer yes.", rules })).toEqual([]);
  });
});
