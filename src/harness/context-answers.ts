import type { InputIndex } from "../safety/near-duplicates.js";
import type { NormalToken } from "../safety/normal-form.js";
import { tokenFeatures } from "../safety/text-features.js";
import type { AnswerHit } from "./answer-index.js";

/**
 * Small answers (an integer under 100, a string under 3 characters) are everywhere in ordinary
 * rules ("use 12 hours", "at most 3 steps"), so they are refused only where they read as the
 * answer of a task: on a line whose record — the line and the heading or less-indented line it
 * sits under — also names that task, that is, holds a specific shingle of the task's input
 * with a name in it (`Brimark: 42`, `| Oststa Halby | 60 |`, `## Oststa Halby` over `- jars
 * per stall: 60`). Counted once per line and task.
 */

/** A line's place in the structure: its tokens and the line it sits under (or -1). */
export interface LineRecord {
  tokens: NormalToken[];
  parent: number;
}

/** The records of a normalised text's lines (see the module comment). */
export function lineRecords(
  lines: readonly string[],
  tokens: readonly NormalToken[],
): LineRecord[] {
  const records: LineRecord[] = lines.map(() => ({ tokens: [], parent: -1 }));
  for (const token of tokens) records[token.line]?.tokens.push(token);
  const open: { indent: number; line: number }[] = [];
  lines.forEach((text, line) => {
    if (text.trim() === "") return;
    // A heading of level L sits under shallower headings; a line under a heading or a less-indented line.
    const heading = /^\s*(#+)\s/.exec(text);
    const indent = heading ? heading[1].length - 100 : (/^\s*/.exec(text)?.[0].length ?? 0);
    while (open.length > 0 && open[open.length - 1].indent >= indent) open.pop();
    records[line].parent = open[open.length - 1]?.line ?? -1;
    open.push({ indent, line });
  });
  return records;
}

/**
 * How often each task's small answer stands in a record that names the task: task index →
 * count. `hits` are the small answers found in the text; `answersOf` gives each task's small
 * answer ids; `index` is the index of the same tasks' inputs.
 */
export function answersInContext(input: {
  records: readonly LineRecord[];
  hits: readonly AnswerHit[];
  answersOf: ReadonlyMap<number, readonly number[]>;
  index: InputIndex;
}): Map<number, number> {
  const { records, index } = input;
  const byLine = new Map<number, Set<number>>();
  for (const hit of input.hits)
    byLine.set(hit.line, (byLine.get(hit.line) ?? new Set()).add(hit.id));
  const counts = new Map<number, number>();
  for (const [line, ids] of byLine) {
    const record = records[line];
    if (!record) continue;
    const tokens = [...(records[record.parent]?.tokens ?? []), ...record.tokens];
    const tasks = new Set<number>();
    for (const hash of tokenFeatures(tokens))
      if (index.named.has(hash)) for (const task of index.postings.get(hash) ?? []) tasks.add(task);
    for (const task of tasks)
      if ((input.answersOf.get(task) ?? []).some((id) => ids.has(id)))
        counts.set(task, (counts.get(task) ?? 0) + 1);
  }
  return counts;
}
