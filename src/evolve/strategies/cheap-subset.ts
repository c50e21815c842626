import type { Task } from "../../config/task-schema.js";
import { stratifiedSample } from "../stratified-sample.js";
import type { Validation } from "./ecdysis-validate.js";

/** The tasks of `tasks` that are not in `skip`, in order. */
export function without(tasks: Task[], skip: Task[]): Task[] {
  const ids = new Set(skip.map((task) => task.id));
  return tasks.filter((task) => !ids.has(task.id));
}

/**
 * The cheap subset of a batch: the failing members of the addressed patterns and a stratified
 * sample (`regressionSample`) of the passing tasks, as a regression check; in batch order.
 */
export function cheapSubset(validation: Validation): Task[] {
  const { batch, before, context, scope } = validation;
  const failingMembers = new Set(
    validation.addressed
      .flatMap((pattern) => pattern.taskIds)
      .filter((taskId) => before.get(taskId) === false),
  );
  const regression = new Set(
    stratifiedSample({
      items: batch.filter((task) => before.get(task.id) === true),
      size: context.config.evolve.ecdysis.regressionSample,
      category: (task) => task.category,
      rng: scope.rng("regression-sample"),
    }).map((task) => task.id),
  );
  return batch.filter((task) => failingMembers.has(task.id) || regression.has(task.id));
}
