import type { EvolveResult, IterationRecord } from "../evolve/result-schema.js";
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
      return describeReplacement(edit, max);
    case "write_file":
      return `write ${edit.file} (${edit.content.length} characters)`;
  }
}

/**
 * A passage replacement by what changed: the text both sides share at the start and the end is
 * left out (`edit system.md: insert " If a tool call fails, …"`), the rest clipped.
 */
function describeReplacement(
  edit: Extract<HarnessEdit, { kind: "replace_text" }>,
  max: number,
): string {
  const { find, replace } = edit;
  let start = 0;
  while (start < find.length && find[start] === replace[start]) start += 1;
  let end = 0;
  while (
    end < find.length - start &&
    end < replace.length - start &&
    find[find.length - 1 - end] === replace[replace.length - 1 - end]
  )
    end += 1;
  const before = find.slice(start, find.length - end);
  const after = replace.slice(start, replace.length - end);
  const room = Math.max(20, max - 40);
  const quote = (text: string) => JSON.stringify(clip(text, room));
  if (before === "") return `edit ${edit.file}: insert ${quote(after)}`;
  if (after === "") return `edit ${edit.file}: delete ${quote(before)}`;
  return `edit ${edit.file}: ${JSON.stringify(clip(before, 24))} → ${quote(after)}`;
}

/** Pattern id → name over a record's diagnosis and its iteration's earlier ones (a repair round builds on them). */
function patternNames(
  iterations: readonly IterationRecord[],
  iteration: IterationRecord,
): Map<string, string> {
  const names = new Map<string, string>();
  for (const record of iterations) {
    if (record.index !== iteration.index) continue;
    for (const pattern of record.diagnosis?.patterns ?? []) names.set(pattern.id, pattern.name);
    if (record === iteration) break;
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
      const names = patternNames(result.iterations, iteration);
      return iteration.applied.map((planned) => ({
        iteration: iteration.index,
        module: planned.module,
        change: describeEdit(planned.edit),
        patterns: planned.patterns.map((id) => names.get(id) ?? id),
      }));
    });
}
