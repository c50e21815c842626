import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { InputError } from "../errors/input-error.js";
import { type Task, taskSchema } from "./task-schema.js";
import { dottedField } from "./yaml-document.js";

/**
 * Loads a tasks JSONL file: one task per line, blank lines skipped, a BOM and CRLF line ends
 * tolerated. Bad JSON, invalid fields, duplicate ids and an empty file are InputErrors that
 * name the file and line.
 */
export async function loadTasks(path: string): Promise<Task[]> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      file,
      code === "ENOENT" ? "tasks file not found" : `cannot read the tasks file (${code})`,
    );
  }
  return parseTasks(file, text);
}

/** Parses JSONL task text (see `loadTasks`); `file` only names the source in errors. */
export function parseTasks(file: string, text: string): Task[] {
  const tasks: Task[] = [];
  const lineOfId = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new InputError(file, `invalid JSON (${(error as Error).message})`, { line });
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new InputError(file, "each line must be a JSON object with 'id', 'input', 'expected'", {
        line,
      });
    }
    const result = taskSchema.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      const path =
        issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path;
      const field = dottedField(path);
      const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
      const problem =
        issue.code === "unrecognized_keys"
          ? `unknown key '${issue.keys.join("', '")}' (allowed: id, input, expected, category, scorer)`
          : missing
            ? `'${field}' is required`
            : issue.message;
      throw new InputError(file, problem, { line, field });
    }
    const previous = lineOfId.get(result.data.id);
    if (previous !== undefined) {
      throw new InputError(
        file,
        `duplicate task id '${result.data.id}' (first on line ${previous})`,
        {
          line,
          field: "id",
        },
      );
    }
    lineOfId.set(result.data.id, line);
    tasks.push(result.data);
  });
  if (tasks.length === 0) throw new InputError(file, "the tasks file contains no tasks");
  return tasks;
}
