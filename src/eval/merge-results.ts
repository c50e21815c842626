import { InputError } from "../errors/input-error.js";
import { addCosts, buildEvalResult } from "./eval-result.js";
import type { EvalResult, RolloutRecord } from "./types.js";

/**
 * Merges the results of disjoint shards of one evaluation into the result an unsharded run
 * gives (tasks are ordered by id, so the union is order-independent). Shards must agree on
 * split, harness and model and must not share tasks.
 */
export function mergeEvalResults(results: readonly EvalResult[], source = "shards"): EvalResult {
  const [first] = results;
  if (!first) throw new InputError(source, "nothing to merge: no eval.json found");
  for (const result of results) {
    for (const field of ["split", "harnessHash", "model"] as const) {
      if (result[field] !== first[field]) {
        throw new InputError(
          source,
          `shards disagree on '${field}' (${first[field]} vs ${result[field]}); merge shards of one evaluation only`,
        );
      }
    }
  }
  const seen = new Set<string>();
  for (const task of results.flatMap((result) => result.tasks)) {
    if (seen.has(task.taskId)) {
      throw new InputError(
        source,
        `task '${task.taskId}' appears in more than one shard; shards must be disjoint`,
      );
    }
    seen.add(task.taskId);
  }
  const tasks = results
    .flatMap((result) => result.tasks)
    .sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
  return buildEvalResult({
    split: first.split,
    harnessHash: first.harnessHash,
    model: first.model,
    tasks,
    cost: addCosts(results.map((result) => result.cost)),
    infraErrors: results.reduce((sum, result) => sum + (result.infraErrors ?? 0), 0),
  });
}

/** Union of rollout records by key, in a canonical order (task id, sample index, key). */
export function mergeRecords(lists: readonly (readonly RolloutRecord[])[]): RolloutRecord[] {
  const byKey = new Map<string, RolloutRecord>();
  for (const record of lists.flat()) if (!byKey.has(record.key)) byKey.set(record.key, record);
  return sortRecords([...byKey.values()]);
}

/** Records in canonical order: task id, then sample index, then key. */
export function sortRecords(records: readonly RolloutRecord[]): RolloutRecord[] {
  return [...records].sort((a, b) =>
    a.taskId !== b.taskId
      ? a.taskId < b.taskId
        ? -1
        : 1
      : a.sampleIndex - b.sampleIndex || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}
