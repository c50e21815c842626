import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { InputError } from "../errors/input-error.js";
import { comparableText } from "../safety/guard-text.js";
import { indexInputSteps, nearDuplicateSteps } from "../safety/near-duplicates.js";
import { runSteps, runStepsYielding, type Steps, stepSize } from "../safety/steps.js";
import { canonicalJson } from "./canonical-json.js";
import type { LoadedConfig } from "./config-schema.js";
import { loadTasks, taskOrigin } from "./load-tasks.js";
import type { Task } from "./task-schema.js";

/** The two splits of a project, checked to be disjoint. */
export interface Splits {
  train: Task[];
  heldout: Task[];
}

/**
 * Refuses overlapping splits: a held-out task whose id, or whose input (compared after NFKC,
 * invisible-character removal, case folding and whitespace collapsing), is also a train task's
 * would be seen by the refiner roles and then counted by the gate as "generalisation". So is a
 * near-duplicate input — an extra period, a `Question:` prefix, a word changed, an HTML entity —
 * found by `nearDuplicates` (normal-form word shingles, `nearDuplicateThresholds`) when the two
 * tasks also expect the same answer (one word apart with another answer asks of another thing). The
 * InputError names the train file and line, and the held-out file and line.
 */
export function checkSplitOverlap(input: {
  train: { file: string; tasks: Task[] };
  heldout: { file: string; tasks: Task[] };
}): void {
  runSteps(splitOverlapSteps(input));
}

/**
 * `checkSplitOverlap` letting the event loop turn between chunks of its work: at 10,000 tasks a
 * split it takes seconds, during which Ctrl-C must still stop the run.
 */
export function checkSplitOverlapYielding(input: {
  train: { file: string; tasks: Task[] };
  heldout: { file: string; tasks: Task[] };
}): Promise<void> {
  return runStepsYielding(splitOverlapSteps(input));
}

function* splitOverlapSteps(input: {
  train: { file: string; tasks: Task[] };
  heldout: { file: string; tasks: Task[] };
}): Steps<void> {
  const { train, heldout } = input;
  const byId = new Map<string, Task>();
  const byInput = new Map<string, Task>();
  for (const [at, task] of heldout.tasks.entries()) {
    if (at % stepSize === stepSize - 1) yield;
    byId.set(task.id, task);
    const key = comparableText(task.input);
    if (!byInput.has(key)) byInput.set(key, task);
  }
  const where = (task: Task, index: number, file: string) =>
    `${taskOrigin(task)?.file ?? file} line ${taskOrigin(task)?.line ?? `(task ${index + 1})`}`;
  for (const [at, task] of train.tasks.entries()) {
    if (at % stepSize === stepSize - 1) yield;
    const sameId = byId.get(task.id);
    const sameInput = sameId ? undefined : byInput.get(comparableText(task.input));
    const other = sameId ?? sameInput;
    if (!other) continue;
    const otherIndex = heldout.tasks.indexOf(other);
    const what = sameId
      ? `task '${task.id}' has the same id as the held-out task on ${where(other, otherIndex, heldout.file)}`
      : `task '${task.id}' has the same input (ignoring case, spacing and Unicode width) as held-out task '${other.id}' on ${where(other, otherIndex, heldout.file)}`;
    throw new InputError(
      taskOrigin(task)?.file ?? train.file,
      `${what}; a task may be in one split only (the refiner would see a held-out task): remove it from one of the files`,
      { line: taskOrigin(task)?.line, field: sameId ? "id" : "input" },
    );
  }
  yield* nearDuplicateCheckSteps(input);
}

/** Refuses a train input that nearly duplicates a held-out one (see `checkSplitOverlap`). */
function* nearDuplicateCheckSteps(input: {
  train: { file: string; tasks: Task[] };
  heldout: { file: string; tasks: Task[] };
}): Steps<void> {
  const { train, heldout } = input;
  const inputs = [...train.tasks, ...heldout.tasks].map((task) => task.input);
  const sameAnswer = (left: number, right: number) =>
    comparableText(canonicalJson(train.tasks[left].expected)) ===
    comparableText(canonicalJson(heldout.tasks[right - train.tasks.length].expected));
  // A near-copy leaks a held-out task only with its answer: "…symbol of gold?" (Au) beside
  // "…symbol of iron?" (Fe) shares most words and asks of another thing.
  const index = yield* indexInputSteps(inputs, { dropShared: false });
  const pairs = yield* nearDuplicateSteps(index, (task) => task < train.tasks.length);
  const near = pairs.find((pair) => sameAnswer(pair.left, pair.right));
  if (!near) return;
  const task = train.tasks[near.left];
  const otherIndex = near.right - train.tasks.length;
  const other = heldout.tasks[otherIndex];
  const where = `${taskOrigin(other)?.file ?? heldout.file} line ${taskOrigin(other)?.line ?? `(task ${otherIndex + 1})`}`;
  throw new InputError(
    taskOrigin(task)?.file ?? train.file,
    `task '${task.id}' has nearly the same input as held-out task '${other.id}' on ${where} (${Math.round(near.similarity * 100)}% alike in weighted word shingles); a task may be in one split only (the refiner would see a held-out task): remove it from one of the files, or make the inputs differ in what they ask`,
    { line: taskOrigin(task)?.line, field: "input" },
  );
}

/**
 * Loads both task files of a config and checks them (before any model is opened or any rollout
 * runs): each file must exist (else an InputError on the config's line and field), they must
 * not be the same file, and the splits must not overlap (`checkSplitOverlap`). `load` is the
 * loader to use (evolve injects its own); default `loadTasks`. Relative task paths are resolved
 * against the config's folder.
 */
export async function loadSplits(
  loaded: LoadedConfig,
  load: (file: string) => Promise<Task[]> = loadTasks,
): Promise<Splits> {
  const files = {
    train: resolve(loaded.root, loaded.config.tasks.train),
    heldout: resolve(loaded.root, loaded.config.tasks.heldout),
  };
  // The train file is read (and its own errors reported) before the held-out file is looked at.
  const train = await load(await existingFile(loaded, "train", files.train));
  const heldoutFile = await existingFile(loaded, "heldout", files.heldout);
  if ((await realpath(files.train)) === (await realpath(heldoutFile))) {
    throw new InputError(
      loaded.path,
      `'tasks.heldout' names the same file as 'tasks.train' (${files.train}); held-out tasks must be kept apart from the tasks the refiner sees`,
      { line: loaded.lines?.["tasks.heldout"], field: "tasks.heldout" },
    );
  }
  const heldout = await load(heldoutFile);
  await checkSplitOverlapYielding({
    train: { file: files.train, tasks: train },
    heldout: { file: files.heldout, tasks: heldout },
  });
  return { train, heldout };
}

/** `file` when it exists as a file; else an InputError on the config's line of `tasks.<split>`. */
async function existingFile(
  loaded: LoadedConfig,
  split: "train" | "heldout",
  file: string,
): Promise<string> {
  const field = `tasks.${split}`;
  const found = await stat(file).catch(() => undefined);
  if (found?.isFile()) return file;
  throw new InputError(
    loaded.path,
    `${found ? "is a folder, not a tasks file" : "tasks file not found"}: ${file}`,
    { line: loaded.lines?.[field], field },
  );
}
