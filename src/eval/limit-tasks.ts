import type { Task } from "../config/task-schema.js";

/**
 * A quick, deterministic subset of at most `limit` tasks (`--limit N`): categories take turns in
 * the order they first appear, each giving its tasks in file order, so a small subset still
 * covers every category it can; the chosen tasks keep their file order. The same file and limit
 * always give the same tasks.
 */
export function limitTasks(tasks: Task[], limit: number | undefined): Task[] {
  if (limit === undefined || limit >= tasks.length) return tasks;
  const byCategory = new Map<string, Task[]>();
  for (const task of tasks) {
    const category = task.category ?? "";
    byCategory.set(category, [...(byCategory.get(category) ?? []), task]);
  }
  const queues = [...byCategory.values()];
  const chosen = new Set<Task>();
  for (let round = 0; chosen.size < limit; round++) {
    for (const queue of queues) {
      if (chosen.size >= limit) break;
      if (round < queue.length) chosen.add(queue[round]);
    }
  }
  return tasks.filter((task) => chosen.has(task));
}
