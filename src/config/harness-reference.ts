import { z } from "zod";
import { type HarnessModule, harnessConfigSchema, harnessModules } from "./harness-schema.js";

/** One settable field of harness.yaml, as the refiner roles are told about it. */
export interface HarnessFieldReference {
  /** Dotted path, e.g. `agent_loop.max_steps`. */
  path: string;
  module: HarnessModule;
  type: "integer" | "number" | "boolean" | "string" | "list";
  /** Allowed values of an enum field. */
  allowed?: string[];
  /** Bounds of a number (inclusive) or the longest string. */
  range?: { min?: number; max?: number; maxLength?: number };
  default?: unknown;
  description: string;
}

/** The generated reference of the built-in harness: modules, tools and every field. */
export interface HarnessReference {
  modules: { name: HarnessModule; description: string }[];
  tools: { name: string; description: string }[];
  fields: HarnessFieldReference[];
}

type JsonSchemaNode = {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
};

let cached: HarnessReference | undefined;

/**
 * The harness reference, generated from the zod schema of harness.yaml (its `.describe()` texts,
 * types, enums, bounds and defaults), so it cannot drift from what the loader accepts.
 */
export function harnessReference(): HarnessReference {
  if (cached) return cached;
  const root = z.toJSONSchema(harnessConfigSchema, {
    io: "input",
    unrepresentable: "any",
  }) as JsonSchemaNode;
  const sections = root.properties ?? {};
  const fields: HarnessFieldReference[] = [];
  for (const module of harnessModules) collect(sections[module] ?? {}, [module], module, fields);
  const tools = Object.entries(sections.tools?.properties ?? {}).map(([name, node]) => ({
    name,
    description: node.description ?? "",
  }));
  const modules = harnessModules.map((name) => ({
    name,
    description: sections[name]?.description ?? "",
  }));
  cached = { modules, tools, fields };
  return cached;
}

function collect(
  node: JsonSchemaNode,
  path: string[],
  module: HarnessModule,
  into: HarnessFieldReference[],
): void {
  if (node.type === "object" && node.properties) {
    for (const [key, child] of Object.entries(node.properties))
      collect(child, [...path, key], module, into);
    return;
  }
  const type = fieldType(node);
  const range = {
    ...(node.minimum !== undefined ? { min: node.minimum } : {}),
    ...(node.maximum !== undefined ? { max: node.maximum } : {}),
    ...(node.maxLength !== undefined ? { maxLength: node.maxLength } : {}),
  };
  into.push({
    path: path.join("."),
    module,
    type,
    ...(node.enum ? { allowed: node.enum.map(String) } : {}),
    ...(Object.keys(range).length > 0 ? { range } : {}),
    ...(node.default !== undefined ? { default: node.default } : {}),
    description: node.description ?? "",
  });
}

function fieldType(node: JsonSchemaNode): HarnessFieldReference["type"] {
  if (node.type === "array") return "list";
  if (node.type === "integer" || node.type === "number" || node.type === "boolean")
    return node.type;
  return "string";
}

/**
 * One line per field for a role prompt: `agent_loop.max_steps (integer 1–64, default 4): …`;
 * enum fields list their values, strings their longest length.
 */
export function describeField(field: HarnessFieldReference): string {
  const facts: string[] = [field.type];
  if (field.allowed) facts[0] = `one of ${field.allowed.join(" | ")}`;
  const { min, max, maxLength } = field.range ?? {};
  if (min !== undefined || max !== undefined) facts.push(`${min ?? "…"}–${max ?? "…"}`);
  if (maxLength !== undefined) facts.push(`at most ${maxLength} chars`);
  if (field.default !== undefined) facts.push(`default ${JSON.stringify(field.default)}`);
  return `${field.path} (${facts.join(", ")}): ${field.description}`;
}
