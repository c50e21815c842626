import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import type { z } from "zod";
import { InputError } from "../errors/input-error.js";

/** A parsed YAML file that can say on which line a dotted field sits. */
export interface LocatedYaml {
  /** Plain JS value of the document. */
  value: unknown;
  /** 1-based line of the deepest existing node on `path` (the key line for map entries). */
  lineOf(path: readonly PropertyKey[]): number | undefined;
}

/** Most alias expansions a YAML document may make (yaml's own default). */
const maxYamlAliases = 100;

/**
 * Parses YAML with line tracking. A syntax error becomes an InputError naming the file and line.
 */
export function parseLocatedYaml(file: string, text: string): LocatedYaml {
  const lineCounter = new LineCounter();
  const document = parseDocument(text.replace(/^\uFEFF/, ""), { lineCounter, prettyErrors: false });
  const first = document.errors[0];
  if (first) {
    const line = first.linePos?.[0]?.line ?? lineCounter.linePos(first.pos[0]).line;
    throw new InputError(file, `invalid YAML: ${first.message.split("\n")[0]}`, { line });
  }
  const lineAt = (offset: number | undefined) =>
    offset === undefined ? undefined : lineCounter.linePos(offset).line;
  let value: unknown;
  try {
    // A bounded number of alias expansions: a "billion laughs" document is refused, not expanded.
    value = document.toJS({ maxAliasCount: maxYamlAliases });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    throw new InputError(
      file,
      `too many YAML aliases (the document expands beyond ${maxYamlAliases} alias uses, as a "billion laughs" file does); write the values out instead`,
    );
  }
  return {
    value,
    lineOf(path) {
      let node: unknown = document.contents;
      let line = lineAt((node as Node | null)?.range?.[0]);
      for (const segment of path) {
        if (isMap(node)) {
          const pair = node.items.find(
            (item) => isPair(item) && scalarKey(item.key) === String(segment),
          );
          if (!pair) return line;
          line = lineAt((pair.key as Node | null)?.range?.[0]) ?? line;
          node = pair.value;
        } else if (isSeq(node) && typeof segment === "number") {
          node = node.items[segment];
          line = lineAt((node as Node | null)?.range?.[0]) ?? line;
        } else {
          return line;
        }
      }
      return line;
    },
  };
}

function scalarKey(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return typeof key === "string" ? key : undefined;
}

/** Dotted field name of a zod path (`tasks.scorer.kind`, `model.quirks[1]`). */
export function dottedField(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}

/** One zod issue as a located problem: field, line and a message that says what to fix. */
function describeIssue(
  issue: z.core.$ZodIssue,
  located: LocatedYaml,
  prefix: readonly PropertyKey[] = [],
): { field: string; line?: number; problem: string } {
  if (issue.code === "unrecognized_keys") {
    const path = [...prefix, ...issue.path, issue.keys[0] ?? ""];
    const keys = issue.keys.map((key) => `'${key}'`).join(", ");
    return {
      field: dottedField(path),
      line: located.lineOf([...issue.path, issue.keys[0] ?? ""]),
      problem: `unknown key ${keys} (check the spelling; unknown keys are not allowed)`,
    };
  }
  const path = [...prefix, ...issue.path];
  const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
  return {
    field: dottedField(path),
    line: located.lineOf(issue.path),
    problem: missing ? `'${dottedField(path)}' is required` : issue.message,
  };
}

/**
 * Validates a located YAML value with a zod schema; every issue is reported, the first one
 * carries the InputError's line and field, the rest are listed in its message.
 */
export function validateLocated<T>(options: {
  file: string;
  located: LocatedYaml;
  schema: z.ZodType<T>;
}): T {
  const { file, located, schema } = options;
  const result = schema.safeParse(located.value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, located));
  const [first, ...rest] = problems;
  const more = rest.map(
    (problem) => `line ${problem.line ?? "?"}: '${problem.field}': ${problem.problem}`,
  );
  const problem = more.length ? `${first.problem} (also: ${more.join("; ")})` : first.problem;
  throw new InputError(file, problem, { line: first.line, field: first.field || undefined });
}
