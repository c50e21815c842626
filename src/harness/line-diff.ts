/** One line of an edit script: kept, removed from the old text or added in the new one. */
export interface DiffLine {
  op: " " | "-" | "+";
  /** The line including its `\n` terminator when it had one. */
  text: string;
}

/** Splits text into lines that keep their terminator, so a missing final newline is a difference. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n").map((line) => `${line}\n`);
  if (text.endsWith("\n")) lines.pop();
  else lines[lines.length - 1] = lines[lines.length - 1].slice(0, -1);
  return lines;
}

/** Shortest edit script between two line arrays (Myers' O((N+M)D) algorithm). */
export function diffLines(before: string[], after: string[]): DiffLine[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start])
    start += 1;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore -= 1;
    endAfter -= 1;
  }
  const middle = myers(before.slice(start, endBefore), after.slice(start, endAfter));
  return [
    ...before.slice(0, start).map((text): DiffLine => ({ op: " ", text })),
    ...middle,
    ...before.slice(endBefore).map((text): DiffLine => ({ op: " ", text })),
  ];
}

function myers(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d += 1) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])
          ? v[offset + k + 1]
          : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  return backtrack({ a, b, trace, offset });
}

function backtrack(input: {
  a: string[];
  b: string[];
  trace: Int32Array[];
  offset: number;
}): DiffLine[] {
  const { a, b, trace, offset } = input;
  const script: DiffLine[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d -= 1) {
    const v = trace[d];
    const k = x - y;
    const previousK =
      k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const previousX = d === 0 ? 0 : v[offset + previousK];
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x -= 1;
      y -= 1;
      script.push({ op: " ", text: a[x] });
    }
    if (d === 0) break;
    if (x === previousX) script.push({ op: "+", text: b[previousY] });
    else script.push({ op: "-", text: a[previousX] });
    x = previousX;
    y = previousY;
  }
  return script.reverse();
}
