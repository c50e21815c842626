import type { Task } from "../config/task-schema.js";
import { GuardError } from "../errors/guard-error.js";

/**
 * Refuses held-out data at the door of diagnosis and refinement: held-out tasks are only for
 * the gate, so a record, task or example naming one (by id or by identical input) is a bug in
 * the caller, never something to show a role.
 */
export function refuseHeldout(options: {
  heldout?: Task[];
  taskIds: string[];
  inputs?: string[];
  stage: string;
}): void {
  if (!options.heldout || options.heldout.length === 0) return;
  const ids = new Set(options.heldout.map((task) => task.id));
  const inputs = new Set(options.heldout.map((task) => task.input.trim()));
  const byId = options.taskIds.find((id) => ids.has(id));
  const byInput = options.inputs?.find((input) => inputs.has(input.trim()));
  if (byId !== undefined || byInput !== undefined) {
    const what = byId !== undefined ? `task '${byId}'` : "a task whose text equals a held-out task";
    throw new GuardError(
      "heldout",
      `${options.stage} was given ${what} from the held-out split; only train tasks may reach the refiner roles`,
    );
  }
}
