import { type DiffLine, diffLines, splitLines } from "./line-diff.js";

/** A unified diff of one file plus its added/removed line counts. */
export interface FilePatch {
  patch: string;
  added: number;
  removed: number;
}

/**
 * Unified diff of one file (`--- a/x`, `+++ b/x`, hunks with `context` lines around changes).
 * A missing side (`undefined`) is rendered as `/dev/null`. Empty patch when nothing differs.
 */
export function unifiedDiff(input: {
  path: string;
  before?: string;
  after?: string;
  context?: number;
}): FilePatch {
  const context = input.context ?? 3;
  const script = diffLines(splitLines(input.before ?? ""), splitLines(input.after ?? ""));
  const added = script.filter((line) => line.op === "+").length;
  const removed = script.filter((line) => line.op === "-").length;
  if (
    added === 0 &&
    removed === 0 &&
    (input.before === undefined) === (input.after === undefined)
  ) {
    return { patch: "", added, removed };
  }
  const header = [
    input.before === undefined ? "--- /dev/null" : `--- a/${input.path}`,
    input.after === undefined ? "+++ /dev/null" : `+++ b/${input.path}`,
  ];
  const hunks = buildHunks(script, context).map(renderHunk);
  return { patch: `${[...header, ...hunks].join("\n")}\n`, added, removed };
}

interface Hunk {
  oldStart: number;
  newStart: number;
  lines: DiffLine[];
}

function buildHunks(script: DiffLine[], context: number): Hunk[] {
  const changed = script
    .map((line, index) => (line.op === " " ? -1 : index))
    .filter((index) => index >= 0);
  const hunks: Hunk[] = [];
  let cursor = 0;
  while (cursor < changed.length) {
    const first = changed[cursor];
    let last = first;
    while (cursor + 1 < changed.length && changed[cursor + 1] - last <= 2 * context + 1) {
      cursor += 1;
      last = changed[cursor];
    }
    cursor += 1;
    const from = Math.max(0, first - context);
    const to = Math.min(script.length, last + context + 1);
    let oldLine = 1;
    let newLine = 1;
    for (const line of script.slice(0, from)) {
      if (line.op !== "+") oldLine += 1;
      if (line.op !== "-") newLine += 1;
    }
    hunks.push({ oldStart: oldLine, newStart: newLine, lines: script.slice(from, to) });
  }
  return hunks;
}

function renderHunk(hunk: Hunk): string {
  const oldCount = hunk.lines.filter((line) => line.op !== "+").length;
  const newCount = hunk.lines.filter((line) => line.op !== "-").length;
  const range = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`;
  const body = hunk.lines.map((line) =>
    line.text.endsWith("\n")
      ? `${line.op}${line.text.slice(0, -1)}`
      : `${line.op}${line.text}\n\\ No newline at end of file`,
  );
  return [
    `@@ -${range(hunk.oldStart, oldCount)} +${range(hunk.newStart, newCount)} @@`,
    ...body,
  ].join("\n");
}
