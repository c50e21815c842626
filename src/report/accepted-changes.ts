import type { EvolveResult, IterationRecord } from "../evolve/types.js";
import type { HarnessEdit } from "../harness/types.js";
import { clip } from "./format.js";

/** One accepted edit as a person reads it: where, what, and for which failure patterns (by name). */
export interface AcceptedChange {
  iteration: number;
  module: string;
  change: string;
  patterns: string[];
}

/** A one-line description of an edit (`set tools.calculator.enabled = true`, `add rule "…"`). */
export function describeEdit(edit: HarnessEdit, max = 120): string {
  switch (edit.kind) {
    case "set":
      return clip(`set ${edit.path} = ${JSON.stringify(edit.value)}`, max);
    case "add_rule":
      return clip(`add rule ${JSON.stringify(edit.text)}`, max);
    case "remove_rule":
      return clip(`remove rule ${JSON.stringify(edit.text)}`, max);
    case "replace_text":
      // What the passage becomes matters more than what it was: the new text gets the room.
      return `edit ${edit.file}: ${JSON.stringify(clip(edit.find, 24))} → ${JSON.stringify(clip(edit.replace, Math.max(20, max - 40)))}`;
    case "write_file":
      return `write ${edit.file} (${edit.content.length} characters)`;
  }
}

/** Pattern id → name over an iteration's diagnosis and its repair round's. */
function patternNames(iteration: IterationRecord): Map<string, string> {
  const names = new Map<string, string>();
  for (const record of [iteration, iteration.repair]) {
    for (const pattern of record?.diagnosis?.patterns ?? []) names.set(pattern.id, pattern.name);
  }
  return names;
}

/**
 * The accepted edits of a run in order, each with its iteration, module, a description of the
 * change, and the names of the patterns it addresses (ids never reach a reader).
 */
export function acceptedChanges(result: Pick<EvolveResult, "iterations">): AcceptedChange[] {
  return result.iterations
    .filter((iteration) => iteration.verdict === "accepted")
    .flatMap((iteration) => {
      const names = patternNames(iteration);
      return iteration.applied.map((planned) => ({
        iteration: iteration.index,
        module: planned.module,
        change: describeEdit(planned.edit),
        patterns: planned.patterns.map((id) => names.get(id) ?? id),
      }));
    });
}
