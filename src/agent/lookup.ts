/** Outcome of a knowledge lookup: the entry text, or an `error:` message. */
export type LookupResult = { ok: true; text: string } | { ok: false; error: string };

/**
 * The `## <Key>` entries of some knowledge files, indexed once: a lookup is one map read, not a
 * scan of every file (a 4.6 MB registry took 422 ms a call, blocking every other rollout).
 * Where two entries share a normalised key, the first (in file order, then line order) wins,
 * as the scan found it.
 */
export class KnowledgeIndex {
  private readonly entries = new Map<string, string>();

  constructor(files: readonly string[]) {
    for (const text of files) {
      for (const entry of knowledgeEntries(text)) {
        const key = normaliseKey(entry.key);
        if (!this.entries.has(key)) this.entries.set(key, entry.text);
      }
    }
  }

  /**
   * The `lookup` tool (docs/sim-protocol.md §1.4): the entry whose key matches case-insensitively
   * after trimming and collapsing spaces, with its heading and lines.
   */
  find(key: string): LookupResult {
    const wanted = normaliseKey(key);
    if (wanted === "") return { ok: false, error: "error: empty key" };
    const text = this.entries.get(wanted);
    return text === undefined
      ? { ok: false, error: `error: no entry named '${key.trim()}'` }
      : { ok: true, text };
  }
}

/** One lookup over files not indexed beforehand (the index is built for this call only). */
export function lookupKey(input: { key: string; files: string[] }): LookupResult {
  return new KnowledgeIndex(input.files).find(input.key);
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
