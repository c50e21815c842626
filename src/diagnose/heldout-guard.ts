import type { Task } from "../config/task-schema.js";
import { GuardError } from "../errors/guard-error.js";
import { comparableText } from "../safety/guard-text.js";

/**
 * Refuses held-out data at the door of diagnosis and refinement: held-out tasks are only for
 * the gate, so a record, task or example naming one (by id, or by an input equal to a held-out
 * input once case, spacing and Unicode width are ignored) is a bug in the caller, never
 * something to show a role.
 */
export function refuseHeldout(options: {
  heldout?: Task[];
  taskIds: string[];
  inputs?: string[];
  stage: string;
}): void {
  if (!options.heldout || options.heldout.length === 0) return;
  const ids = new Set(options.heldout.map((task) => task.id));
  const inputs = new Set(options.heldout.map((task) => comparableText(task.input)));
  const byId = options.taskIds.find((id) => ids.has(id));
  const byInput = options.inputs?.find((input) => inputs.has(comparableText(input)));
  if (byId !== undefined || byInput !== undefined) {
    const what = byId !== undefined ? `task '${byId}'` : "a task whose text equals a held-out task";
    throw new GuardError(
      "heldout",
      `${options.stage} was given ${what} from the held-out split; only train tasks may reach the refiner roles`,
    );
  }
}

/** Held-out inputs shorter than this (normalised) are only checked at the stage doors, by equality. */
const minSealedInputChars = 20;

/**
 * The held-out seal on the wire: refuses any text meant for a refiner role (a whole prompt) that
 * contains the input of a held-out task, as written or JSON-escaped (evidence embeds task text
 * as JSON strings), compared after guard normalisation, case folding and whitespace collapsing.
 * Inputs too short to tell apart from ordinary text, and inputs that also occur inside a train
 * input or a harness file (which the roles legitimately see), are left to the stage doors.
 */
export class HeldoutSeal {
  private readonly needles: { id: string; text: string }[];

  constructor(options: { heldout: Task[]; allowed?: string[] }) {
    const allowed = (options.allowed ?? []).map(comparableText);
    this.needles = options.heldout.flatMap((task) => {
      const forms = new Set([
        comparableText(task.input),
        comparableText(JSON.stringify(task.input).slice(1, -1)),
      ]);
      return [...forms]
        .filter((text) => text.length >= minSealedInputChars)
        .filter((text) => !allowed.some((other) => other.includes(text)))
        .map((text) => ({ id: task.id, text }));
    });
  }

  /** Throws GuardError when `text` carries a held-out input. */
  check(text: string, stage: string): void {
    if (this.needles.length === 0) return;
    const haystack = comparableText(text);
    const found = this.needles.find((needle) => haystack.includes(needle.text));
    if (found) {
      throw new GuardError(
        "heldout",
        `${stage}: a refiner call would carry the input of held-out task '${found.id}'; held-out tasks never reach the refiner roles`,
      );
    }
  }
}
