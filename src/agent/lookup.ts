/** Outcome of a knowledge lookup: the entry text, or an `error:` message. */
export type LookupResult = { ok: true; text: string } | { ok: false; error: string };

/**
 * The `lookup` tool (docs/sim-protocol.md §1.4): finds a `## <Key>` entry in the given knowledge
 * files (Markdown text, searched in order), matching the key case-insensitively after trimming
 * and collapsing spaces, and returns the heading with its lines.
 */
export function lookupKey(input: { key: string; files: string[] }): LookupResult {
  const wanted = normaliseKey(input.key);
  if (wanted === "") return { ok: false, error: "error: empty key" };
  for (const text of input.files) {
    const entry = knowledgeEntries(text).find(
      (candidate) => normaliseKey(candidate.key) === wanted,
    );
    if (entry) return { ok: true, text: entry.text };
  }
  return { ok: false, error: `error: no entry named '${input.key.trim()}'` };
}

/** The `## Key` entries of a knowledge file, each with its full text (heading and lines). */
function knowledgeEntries(text: string): { key: string; text: string }[] {
  const entries: { key: string; lines: string[] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading && !line.startsWith("###"))
      entries.push({ key: heading[1], lines: [line.trimEnd()] });
    else if (entries.length > 0) entries[entries.length - 1].lines.push(line.trimEnd());
  }
  return entries.map((entry) => {
    const lines = [...entry.lines];
    while (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    return { key: entry.key, text: lines.join("\n") };
  });
}

function normaliseKey(key: string): string {
  return key.trim().replace(/\s+/g, " ").toLowerCase();
}
