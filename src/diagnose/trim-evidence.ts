import { cutMiddle } from "../llm/cut-middle.js";
import { evidenceBlock } from "./untrusted-text.js";

/** One degree of shrinking: the longest text, items of nested lists, the share of top lists kept. */
interface Shrink {
  textChars: number;
  nestedItems: number;
  topShare: number;
}

const all = Number.POSITIVE_INFINITY;
/**
 * Gentlest first. Long texts lose their middle before any item goes (a long task keeps its
 * opening and its question; what a role needs is rarely in the middle of one text); then nested
 * lists of records (examples, tool calls) keep their first items — fewer examples make a weaker
 * diagnosis, still one per pattern; last, the top lists (the request's own subjects) lose items.
 */
const shrinks: Shrink[] = [
  { textChars: all, nestedItems: all, topShare: 1 },
  { textChars: 1200, nestedItems: all, topShare: 1 },
  { textChars: 600, nestedItems: all, topShare: 1 },
  { textChars: 400, nestedItems: all, topShare: 1 },
  { textChars: 400, nestedItems: 4, topShare: 1 },
  { textChars: 400, nestedItems: 3, topShare: 1 },
  { textChars: 300, nestedItems: 2, topShare: 1 },
  { textChars: 300, nestedItems: 1, topShare: 1 },
  { textChars: 200, nestedItems: 1, topShare: 0.5 },
  { textChars: 160, nestedItems: 1, topShare: 0.25 },
];

/**
 * Evidence fitted to `maxChars` characters of compact JSON (`evidenceBlock(…, {compact})`) for a
 * model whose context it did not fit: the same shape, so the role reads it as before, shrunk
 * only as far as needed. The `expendable` parts (dot paths of reference material the role can do
 * without) go first; the smallest shrink when even that does not fit.
 */
export function fitEvidence(
  value: unknown,
  maxChars: number,
  options: { expendable?: string[] } = {},
): unknown {
  const fits = (candidate: unknown) =>
    evidenceBlock(candidate, { compact: true }).length <= maxChars;
  if (fits(value)) return value;
  const base = (options.expendable ?? []).reduce(withoutPath, value);
  let shrunk: unknown = base;
  for (const shrink of shrinks) {
    shrunk = shrinkValue(base, shrink, 0);
    if (fits(shrunk)) return shrunk;
  }
  return shrunk;
}

/** `value` without the field at a dot path (unchanged when there is none). */
function withoutPath(value: unknown, path: string): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const [key, ...rest] = path.split(".");
  const record = value as Record<string, unknown>;
  if (!(key in record)) return value;
  if (rest.length === 0)
    return Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));
  return { ...record, [key]: withoutPath(record[key], rest.join(".")) };
}

/** `listDepth`: how many lists `value` sits in (0: a top list's own items are its subjects). */
function shrinkValue(value: unknown, shrink: Shrink, listDepth: number): unknown {
  if (typeof value === "string") return cutMiddle(value, shrink.textChars);
  if (Array.isArray(value)) {
    // Lists of plain values (event kinds, signals, labels) are small and often read whole.
    const records = value.some((item) => item !== null && typeof item === "object");
    const keep = !records
      ? value.length
      : listDepth === 0
        ? Math.max(1, Math.ceil(value.length * shrink.topShare))
        : Math.min(value.length, shrink.nestedItems);
    return value.slice(0, keep).map((item) => shrinkValue(item, shrink, listDepth + 1));
  }
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
        key,
        shrinkValue(inner, shrink, listDepth),
      ]),
    );
  return value;
}
