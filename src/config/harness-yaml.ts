import type { Node as YamlNode } from "yaml";
import { isMap, isPair, isScalar, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { InputError } from "../errors/input-error.js";
import { type HarnessConfig, harnessConfigSchema } from "./harness-schema.js";

/**
 * Parses and validates the text of a `harness.yaml`. YAML syntax errors and schema violations
 * become an InputError naming the file, the line and the dotted field.
 */
export function parseHarnessYaml(file: string, text: string): HarnessConfig {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const syntaxError = document.errors[0];
  if (syntaxError) {
    const line = lineCounter.linePos(syntaxError.pos[0]).line;
    throw new InputError(file, `invalid YAML: ${syntaxError.message.split("\n")[0]}`, { line });
  }
  const raw: unknown = document.toJS() ?? {};
  const parsed = harnessConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issuePath(issue);
    const offset = offsetOf(document.contents, path);
    const line = offset === undefined ? undefined : lineCounter.linePos(offset).line;
    throw new InputError(file, issue.message, { line, field: path.join(".") || undefined });
  }
  try {
    new RegExp(parsed.data.completion.answer_pattern);
  } catch (error) {
    const path = ["completion", "answer_pattern"];
    const offset = offsetOf(document.contents, path);
    throw new InputError(file, `not a valid regular expression: ${(error as Error).message}`, {
      line: offset === undefined ? undefined : lineCounter.linePos(offset).line,
      field: path.join("."),
    });
  }
  return parsed.data;
}

function issuePath(issue: z.core.$ZodIssue): string[] {
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys" && issue.keys.length > 0) path.push(issue.keys[0]);
  return path;
}

/** Offset of the deepest node (or map key) along `path` that exists in the document. */
function offsetOf(root: unknown, path: string[]): number | undefined {
  let node = root as YamlNode | null | undefined;
  let offset = node?.range?.[0];
  for (const key of path) {
    if (!isMap(node)) break;
    const pair = node.items.find(
      (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === key,
    );
    if (!pair) break;
    const keyNode = pair.key as YamlNode;
    offset = keyNode.range?.[0] ?? offset;
    node = pair.value as YamlNode | null;
  }
  return offset;
}
