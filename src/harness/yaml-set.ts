import { parseDocument } from "yaml";
import { z } from "zod";
import { harnessConfigSchema } from "../config/harness-schema.js";

/** Outcome of a `set` edit on the harness.yaml text. */
export type YamlSetResult =
  | { ok: true; text: string; value: string | number | boolean }
  | { ok: false; reason: string };

/**
 * Sets a field of harness.yaml by dotted path through yaml's Document API, so comments and
 * layout elsewhere survive. Refuses paths the schema does not know and non-leaf fields; coerces
 * "true"/"8" strings to the field's boolean/number type. Validation of the result is the caller's.
 */
export function setYamlPath(input: {
  text: string;
  path: string;
  value: string | number | boolean;
}): YamlSetResult {
  const segments = input.path.split(".");
  const leaf = schemaAt(segments);
  if (!leaf) return { ok: false, reason: `'${input.path}' is not a field of harness.yaml` };
  if (leaf instanceof z.ZodObject || leaf instanceof z.ZodArray) {
    return { ok: false, reason: `'${input.path}' is a section or list, not a single value` };
  }
  const value = coerce(leaf, input.value);
  const document = parseDocument(input.text);
  if (document.errors.length > 0) return { ok: false, reason: "harness.yaml does not parse" };
  document.setIn(segments, value);
  return { ok: true, text: document.toString(), value };
}

/** The schema of a dotted field (defaults and optionals unwrapped), or undefined. */
export function schemaAt(segments: string[]): z.ZodType | undefined {
  let current: z.ZodType = harnessConfigSchema;
  for (const segment of segments) {
    const object = unwrap(current);
    if (!(object instanceof z.ZodObject)) return undefined;
    const shape = object.shape as Record<string, z.ZodType>;
    if (!Object.hasOwn(shape, segment)) return undefined;
    current = shape[segment];
  }
  return unwrap(current);
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodOptional)
    current = current.unwrap() as z.ZodType;
  return current;
}

function coerce(leaf: z.ZodType, value: string | number | boolean): string | number | boolean {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  if (leaf instanceof z.ZodBoolean && (trimmed === "true" || trimmed === "false"))
    return trimmed === "true";
  if (leaf instanceof z.ZodNumber && trimmed !== "" && Number.isFinite(Number(trimmed)))
    return Number(trimmed);
  return value;
}

/**
 * Whether a `set` of this field to this value is a typed setting that carries no text: a number,
 * a boolean or one of the field's enumerated values. No task's entity or answer fits in one, so
 * such an edit cannot hold item-specific knowledge (acceptance.ts reads this).
 */
export function typedSetting(path: string, value: string | number | boolean): boolean {
  const leaf = schemaAt(path.split("."));
  if (!leaf) return false;
  const coerced = coerce(leaf, value);
  if (leaf instanceof z.ZodBoolean) return typeof coerced === "boolean";
  if (leaf instanceof z.ZodNumber) return typeof coerced === "number";
  if (leaf instanceof z.ZodEnum)
    return (
      typeof coerced === "string" && (leaf.options as readonly string[]).includes(coerced.trim())
    );
  return false;
}
