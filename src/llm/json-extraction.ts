/**
 * Finds the JSON a model meant to send in what it actually sent: the whole reply, ```json fences,
 * or balanced `{…}` / `[…]` spans inside prose, each also tried with trailing commas removed.
 * A reasoning model's `<think>…</think>` block is left out first: a draft inside it is not the
 * answer. Returns every distinct value that parses, most likely first.
 */
export function extractJsonCandidates(reply: string): unknown[] {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/gi, "");
  const sources: string[] = [text.trim()];
  for (const match of text.matchAll(/```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g)) {
    sources.push(match[1].trim());
  }
  sources.push(...balancedSpans(text));
  const seen = new Set<string>();
  const values: unknown[] = [];
  for (const source of sources) {
    if (!source || seen.has(source)) continue;
    seen.add(source);
    const value = parseLenient(source);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/** `JSON.parse`, then again without trailing commas; undefined when neither parses. */
function parseLenient(source: string): unknown {
  for (const candidate of [source, removeTrailingCommas(source)]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // try the next repair
    }
  }
  return undefined;
}

/** Drops commas that directly precede `}` or `]`, leaving string contents alone. */
export function removeTrailingCommas(source: string): string {
  let result = "";
  let inString = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (inString) {
      result += char;
      if (char === "\\") {
        result += source[index + 1] ?? "";
        index++;
      } else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    if (char === ",") {
      const rest = source.slice(index + 1).match(/^\s*([}\]])/);
      if (rest) continue;
    }
    result += char;
  }
  return result;
}

/** Top-level balanced brace/bracket spans, string-aware, objects before arrays, longest first. */
function balancedSpans(text: string): string[] {
  const spans: string[] = [];
  let index = 0;
  while (index < text.length) {
    const open = text[index];
    if (open !== "{" && open !== "[") {
      index++;
      continue;
    }
    const end = matchingClose(text, index);
    if (end === -1) {
      index++;
      continue;
    }
    spans.push(text.slice(index, end + 1));
    index = end + 1;
  }
  const objects = spans.filter((span) => span.startsWith("{"));
  const arrays = spans.filter((span) => span.startsWith("["));
  const byLength = (a: string, b: string) => b.length - a.length;
  return [...objects.sort(byLength), ...arrays.sort(byLength)];
}

function matchingClose(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === "{") stack.push("}");
    else if (char === "[") stack.push("]");
    else if (char === "}" || char === "]") {
      if (stack.pop() !== char) return -1;
      if (stack.length === 0) return index;
    }
  }
  return -1;
}
