import { nearCopies } from "../safety/near-copies.js";
import { featureHash, shingleKeys } from "../safety/text-features.js";
import type { ContentRules } from "./content-rules.js";
import { type FileScan, leakNgramWords, scanFile } from "./harness-scan.js";
import type { LabelWord } from "./label-words.js";

/** Default cap on a harness file's size after an edit. */
export const defaultMaxFileBytes = 64 * 1024;
/** Default cap on the new text one edit brings. */
export const defaultMaxEditBytes = 8 * 1024;
/** Most distinct files one call of applyEdits may change. */
export const maxEditedFiles = 20;

export { findSecret } from "../safety/secrets.js";
export { type ContentRules, contentRules } from "./content-rules.js";
export { leakNgramWords } from "./harness-scan.js";

/**
 * A harness as the content guards read it: its files' guarded texts by path (`guardedText`),
 * or one text. Every check reads the whole harness at once, so what is split across files is
 * counted whole.
 */
export type GuardedHarness = string | Readonly<Record<string, string>>;

/** A content guard's verdict on a text: which guard refused it and why (never quoting a secret). */
export interface ContentFinding {
  guard: "leak" | "secret";
  reason: string;
}

/**
 * The first forbidden thing the whole harness `after` carries that `before` did not: a
 * configured secret value (in any form, even split by whitespace), the redaction marker records
 * carry in place of a secret, a credential shape; an expected answer in the normal form
 * (`src/safety/normal-form.ts`: `4,542`, `287coins`, `Brimark-Works`; a held-out answer also
 * spelled out or as an arithmetic step); a small answer on a line that names its task; an
 * 8-word run of a task input; or a task input reworded (`nearCopies`: clauses swapped, words
 * replaced or dropped, split across files). What the harness already had is no new finding.
 * The reason never quotes the finding: rejections are shown to later refiner calls, and a
 * held-out answer must not reach them.
 */
export function introducedContent(input: {
  before: GuardedHarness;
  after: GuardedHarness;
  rules: ContentRules;
}): ContentFinding | null {
  const { rules } = input;
  const before = scans(rules, input.before);
  const after = scans(rules, input.after);
  const secret = introducedSecret(before, after);
  if (secret) return { guard: "secret", reason: secret };
  const leak = (reason: string): ContentFinding => ({ guard: "leak", reason });
  if (grew(before, after, (scan) => scan.answers))
    return leak("it would introduce the expected answer of a task");
  if (grew(before, after, (scan) => scan.context))
    return leak("it would write the expected answer of a task beside the task's name");
  const grams = new Set(before.flatMap((scan) => [...scan.grams]));
  if (after.some((scan) => [...scan.grams].some((gram) => !grams.has(gram))))
    return leak(`it would copy a ${leakNgramWords}-word run of a task input`);
  const baseline = rules.baseline ?? linesByFile(input.before, before);
  const copied = new Set(nearCopies(rules.inputs, evidence(input.before, before, baseline)));
  const copies = nearCopies(rules.inputs, evidence(input.after, after, baseline));
  if (copies.some((task) => !copied.has(task)))
    return leak("it would copy a task input (reworded or in pieces)");
  return null;
}

/**
 * The label words the whole harness `after` has more of than `before` (found like
 * `introducedContent`'s answers), in the order they first appear: allowed, but shown to the
 * reviewer with the edit and file.
 */
export function introducedLabels(input: {
  before: GuardedHarness;
  after: GuardedHarness;
  rules: ContentRules;
}): LabelWord[] {
  const { rules } = input;
  const before = totals(scans(rules, input.before), (scan) => counts(scan.labels));
  const after = scans(rules, input.after);
  const grown = totals(after, (scan) => counts(scan.labels));
  const firstSeen = new Map<number, number>();
  after.forEach((scan, file) => {
    for (const [id, { first }] of scan.labels)
      if (!firstSeen.has(id)) firstSeen.set(id, file * 1e9 + first);
  });
  return [...grown.entries()]
    .filter(([id, count]) => count > (before.get(id) ?? 0))
    .sort((a, b) => (firstSeen.get(a[0]) ?? 0) - (firstSeen.get(b[0]) ?? 0))
    .map(([id]) => rules.labelWords[id]);
}

/** A harness's file paths in order (one text is the file ""). */
function pathsOf(harness: GuardedHarness): string[] {
  return typeof harness === "string" ? [""] : Object.keys(harness).sort();
}

/** The scans of a harness's files, in path order. */
function scans(rules: ContentRules, harness: GuardedHarness): FileScan[] {
  return pathsOf(harness).map((path) =>
    scanFile(rules, typeof harness === "string" ? harness : (harness[path] ?? "")),
  );
}

/** Each file's line keys (the baseline when the context names no seed files). */
function linesByFile(harness: GuardedHarness, list: FileScan[]): Map<string, Set<string>> {
  const paths = pathsOf(harness);
  return new Map(list.map((scan, at) => [paths[at], new Set(scan.lines.map((line) => line.key))]));
}

function counts(labels: FileScan["labels"]): Map<number, number> {
  return new Map([...labels].map(([id, { count }]) => [id, count]));
}

function totals(list: FileScan[], pick: (scan: FileScan) => Map<number, number>) {
  const sum = new Map<number, number>();
  for (const scan of list)
    for (const [key, count] of pick(scan)) sum.set(key, (sum.get(key) ?? 0) + count);
  return sum;
}

/** True when some key counts more in `after` than in `before` (summed over files). */
function grew(
  before: FileScan[],
  after: FileScan[],
  pick: (scan: FileScan) => Map<number, number>,
): boolean {
  const was = totals(before, pick);
  return [...totals(after, pick)].some(([key, count]) => count > (was.get(key) ?? 0));
}

function introducedSecret(before: FileScan[], after: FileScan[]): string | null {
  const sum = (list: FileScan[], pick: (scan: FileScan) => number) =>
    list.reduce((total, scan) => total + pick(scan), 0);
  if (sum(after, (scan) => scan.secretValues) > sum(before, (scan) => scan.secretValues))
    return "it would contain the value of a configured secret";
  if (sum(after, (scan) => scan.markers) > sum(before, (scan) => scan.markers))
    return "it would carry a secret that was redacted from the records";
  const known = new Set(
    before.flatMap((scan) => [...scan.shapes.values()].flatMap((set) => [...set])),
  );
  for (const scan of after)
    for (const [name, found] of scan.shapes)
      if ([...found].some((match) => !known.has(match)))
        return `it would contain what looks like ${name}`;
  return null;
}

/**
 * The shingles of the lines of a harness that its file did not have in `baseline` (the seed's
 * lines, file by file): the text the refinement wrote, read file by file in line order.
 */
function evidence(
  harness: GuardedHarness,
  list: FileScan[],
  baseline: ReadonlyMap<string, ReadonlySet<string>>,
): Set<number> {
  const paths = pathsOf(harness);
  const hashes = new Set<number>();
  list.forEach((scan, at) => {
    const old = baseline.get(paths[at]);
    const keys = scan.lines.filter((line) => !old?.has(line.key)).flatMap((line) => line.keys);
    for (const shingle of shingleKeys(keys)) hashes.add(featureHash(shingle));
  });
  return hashes;
}

/**
 * The text a content guard reads for one harness file: the file as written and, for a parsed
 * config (harness.yaml), every string value in it, one per line. YAML escapes (`"\u0073k-…"`)
 * and folded scalars would hide from the raw text what the runtime puts in the prompt.
 */
function guardedText(text: string, config?: unknown): string {
  if (config === undefined) return text;
  const strings: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value === "string") strings.push(value);
    else if (Array.isArray(value)) for (const item of value) visit(item);
    else if (value && typeof value === "object")
      for (const item of Object.values(value)) visit(item);
  };
  visit(config);
  return `${text}\n${strings.join("\n")}`;
}

/** The guarded texts of a harness's files (`guardedText`; a built-in harness's config read into harness.yaml's). */
export function guardedFiles(harness: {
  kind: "builtin" | "command";
  files: Readonly<Record<string, string>>;
  config?: unknown;
}): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [path, text] of Object.entries(harness.files)) {
    const isConfig = path === "harness.yaml" && harness.kind === "builtin";
    result[path] = guardedText(text, isConfig ? harness.config : undefined);
  }
  return result;
}
