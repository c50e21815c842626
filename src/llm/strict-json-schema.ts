import { type ZodType, z } from "zod";

type Schema = Record<string, unknown>;

/**
 * Keywords OpenAI's strict structured-output mode (and the grammar engines of vLLM and llama.cpp
 * that follow it) does not accept. Length and range limits are checked by zod after parsing.
 */
const droppedKeywords = [
  "$schema",
  "default",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "pattern",
  "format",
  "minProperties",
  "maxProperties",
  "uniqueItems",
] as const;

/**
 * The JSON Schema of a zod wire schema in OpenAI's strict-mode subset: no root `$schema`,
 * `anyOf` instead of `oneOf`, no length or range limits, every object closed
 * (`additionalProperties: false`) with all its properties required — an optional property
 * becomes nullable, as strict mode demands. The zod schema still validates the reply.
 */
export function strictJsonSchema(schema: ZodType): Schema {
  return toStrict(z.toJSONSchema(schema) as Schema, true);
}

function toStrict(node: Schema, root = false): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if ((droppedKeywords as readonly string[]).includes(key)) continue;
    if (key === "oneOf" || key === "anyOf") out.anyOf = (value as Schema[]).map((s) => toStrict(s));
    else if (key === "items") out.items = toStrict(value as Schema);
    else if (key === "$defs" || key === "definitions")
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([name, s]) => [name, toStrict(s)]),
      );
    else if (key !== "properties" && key !== "required" && key !== "additionalProperties")
      out[key] = value;
  }
  if (Array.isArray(out.type) && (out.type as string[]).filter((t) => t !== "null").length > 1) {
    const types = out.type as string[];
    delete out.type;
    out.anyOf = types.map((type) => ({ type }));
  }
  if (node.type === "object" || node.properties) {
    const properties = (node.properties ?? {}) as Record<string, Schema>;
    const required = new Set((node.required as string[] | undefined) ?? []);
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => {
        const strict = toStrict(property);
        return [name, required.has(name) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (root) delete out.$schema;
  return out;
}

function nullable(schema: Schema): Schema {
  if (typeof schema.type === "string") {
    const widened: Schema = { ...schema, type: [schema.type, "null"] };
    if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
    return widened;
  }
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * Where a JSON Schema leaves OpenAI's strict-mode subset (empty when it is inside): the checks
 * OpenAI's API applies to `response_format: json_schema` with `strict: true`.
 */
export function strictSchemaViolations(schema: Schema): string[] {
  const problems: string[] = [];
  if ("$schema" in schema) problems.push("(root): $schema is not allowed");
  if (schema.type !== "object") problems.push("(root): must be an object schema");
  if ("anyOf" in schema) problems.push("(root): anyOf is not allowed at the root");
  walk(schema, "(root)", 1, problems);
  return problems;
}

function walk(node: Schema, path: string, depth: number, problems: string[]): void {
  if (depth > 10) problems.push(`${path}: nested deeper than 10 levels`);
  for (const keyword of [
    ...droppedKeywords.filter((k) => k !== "$schema"),
    "oneOf",
    "allOf",
    "not",
  ])
    if (keyword in node) problems.push(`${path}: '${keyword}' is not supported in strict mode`);
  const typed =
    "type" in node || "anyOf" in node || "$ref" in node || "enum" in node || "const" in node;
  if (!typed) problems.push(`${path}: every schema needs a type (or anyOf, enum, const, $ref)`);
  if (Array.isArray(node.type) && (node.type as string[]).filter((t) => t !== "null").length > 1)
    problems.push(`${path}: a type list may only add "null"; use anyOf`);
  if (node.type === "object") {
    const properties = (node.properties ?? {}) as Record<string, Schema>;
    if (node.additionalProperties !== false)
      problems.push(`${path}: additionalProperties must be false`);
    const required = new Set((node.required as string[] | undefined) ?? []);
    for (const name of Object.keys(properties))
      if (!required.has(name)) problems.push(`${path}.${name}: every property must be required`);
    for (const [name, property] of Object.entries(properties))
      walk(property, `${path}.${name}`, depth + 1, problems);
  }
  if (node.items) walk(node.items as Schema, `${path}[]`, depth + 1, problems);
  for (const [index, option] of ((node.anyOf as Schema[] | undefined) ?? []).entries())
    walk(option, `${path}|${index}`, depth, problems);
  for (const [name, definition] of Object.entries((node.$defs ?? {}) as Record<string, Schema>))
    walk(definition, `#/$defs/${name}`, 1, problems);
}
