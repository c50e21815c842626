import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../errors/input-error.js";
import { loadTasks, parseTasks } from "./load-tasks.js";

function problem(text: string): InputError {
  try {
    parseTasks("tasks.jsonl", text);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error("expected an InputError");
}

describe("loadTasks", () => {
  it("reads tasks with a BOM, CRLF and blank lines, defaulting the category", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ecdysis-tasks-"));
    const path = join(dir, "train.jsonl");
    const lines = [
      '{"id":"a","input":"2+2?","expected":4}',
      "",
      '{"id":"b","input":"capital?","expected":"Paris","category":"geo","scorer":{"kind":"contains"}}',
      "",
    ];
    await writeFile(path, `\uFEFF${lines.join("\r\n")}`);
    const tasks = await loadTasks(path);
    expect(tasks.map((task) => [task.id, task.category])).toEqual([
      ["a", "default"],
      ["b", "geo"],
    ]);
    expect(tasks[1].scorer).toEqual({ kind: "contains" });
  });

  it("names the line of bad JSON", () => {
    const error = problem('{"id":"a","input":"x","expected":1}\n\n{"id":"b",\n');
    expect(error.location.line).toBe(3);
    expect(error.message).toContain("invalid JSON");
  });

  it("names line and field of a missing or invalid field", () => {
    expect(problem('{"id":"a","input":"x"}').location).toEqual({ line: 1, field: "expected" });
    const wrong = problem('{"id":"a","input":"x","expected":1}\n{"id":"b","input":3,"expected":1}');
    expect(wrong.location).toEqual({ line: 2, field: "input" });
    const scorer = problem('{"id":"a","input":"x","expected":1,"scorer":{"kind":"fuzzy"}}');
    expect(scorer.location.field).toBe("scorer.kind");
    const unknown = problem('{"id":"a","input":"x","expected":1,"answer":2}');
    expect(unknown.location).toEqual({ line: 1, field: "answer" });
  });

  it("rejects duplicate ids naming both lines", () => {
    const error = problem(
      '{"id":"a","input":"x","expected":1}\n{"id":"a","input":"y","expected":2}',
    );
    expect(error.location).toEqual({ line: 2, field: "id" });
    expect(error.message).toContain("first on line 1");
  });

  it("rejects an empty file, a non-object line and a missing file", async () => {
    expect(problem("\n \n").message).toContain("no tasks");
    expect(problem("[1,2]").location.line).toBe(1);
    await expect(loadTasks("/nonexistent/tasks.jsonl")).rejects.toThrow(/not found/);
  });
});
