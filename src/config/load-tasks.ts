import { resolve } from "node:path";
import { InputError } from "../errors/input-error.js";
import { readUserText } from "./read-text.js";
import { type Task, taskSchema } from "./task-schema.js";
import { dottedField } from "./yaml-document.js";

/** Largest tasks file accepted. */
const maxTasksFileBytes = 64 * 1024 * 1024;
/** Largest single line (task) of a tasks file. */
const maxTaskLineBytes = 1024 * 1024;

/** Where a loaded task came from: its file and 1-based line. */
export interface TaskOrigin {
  file: string;
  line: number;
}

// Keyed by the task object itself, so a Task keeps its plain shape (rollout keys hash it) while
// the split-overlap check can still name the file and line of each side.
const origins = new WeakMap<Task, TaskOrigin>();

/** The file and line a task was parsed from, when it came from `loadTasks`/`parseTasks`. */
export function taskOrigin(task: Task): TaskOrigin | undefined {
  return origins.get(task);
}

/**
 * Loads a tasks JSONL file: one task per line, blank lines skipped, a BOM and CRLF line ends
 * tolerated. Bytes that are not UTF-8, bad JSON, invalid fields (a per-task scorer with invalid
 * regex flags included), duplicate ids, an over-long line and an empty file are InputErrors that
 * name the file and line.
 */
export async function loadTasks(path: string): Promise<Task[]> {
  const file = resolve(path);
  const text = await readUserText({ file, what: "tasks file", maxBytes: maxTasksFileBytes });
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
    const task = parseTaskLine({ file, raw, line });
    const previous = lineOfId.get(task.id);
    if (previous !== undefined) {
      throw new InputError(file, `duplicate task id '${task.id}' (first on line ${previous})`, {
        line,
        field: "id",
      });
    }
    lineOfId.set(task.id, line);
    origins.set(task, { file, line });
    tasks.push(task);
  });
  if (tasks.length === 0) throw new InputError(file, "the tasks file contains no tasks");
  return tasks;
}

function parseTaskLine(input: { file: string; raw: string; line: number }): Task {
  const { file, raw, line } = input;
  const bytes = Buffer.byteLength(raw);
  if (bytes > maxTaskLineBytes)
    throw new InputError(file, `the task is ${bytes} bytes; at most ${maxTaskLineBytes} allowed`, {
      line,
    });
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
  return result.data;
}
