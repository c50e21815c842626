import { describe, expect, it } from "vitest";
import { scorerSpecSchema } from "../../config/task-schema.js";
import { InputError } from "../../errors/input-error.js";
import { createScorer, scorerForTasks } from "./create-scorer.js";
import { answered, taskExpecting } from "./test-task.js";

describe("createScorer", () => {
  it("builds every kind of the spec schema", () => {
    const specs = [
      { kind: "exact" },
      { kind: "numeric" },
      { kind: "regex" },
      { kind: "contains" },
      { kind: "choice", choices: ["a", "b"] },
      { kind: "json_subset" },
      { kind: "command", command: "true" },
    ].map((spec) => scorerSpecSchema.parse(spec));
    for (const spec of specs)
      expect(typeof createScorer(spec, { root: "/" }).score).toBe("function");
  });

  it("refuses an llm_judge without a judge model", () => {
    const spec = scorerSpecSchema.parse({ kind: "llm_judge", rubric: "r" });
    expect(() => createScorer(spec, { root: "/", file: "ecdysis.yml" })).toThrow(InputError);
  });

  it("lets a task's own scorer override the default", async () => {
    const forTask = scorerForTasks({ kind: "exact" }, { root: "/" });
    const plain = taskExpecting("Paris");
    const contains = taskExpecting("Paris", { scorer: { kind: "contains" } });
    expect((await forTask(plain).score(plain, answered("in Paris"))).pass).toBe(false);
    expect((await forTask(contains).score(contains, answered("in Paris"))).pass).toBe(true);
  });
});
