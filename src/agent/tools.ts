import type { HarnessConfig } from "../config/harness-schema.js";
import { harnessFile } from "../harness/harness-references.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ToolSpec } from "../llm/types.js";
import { evaluateExpression } from "./calculator.js";
import { KnowledgeIndex } from "./lookup.js";

/** Names of the built-in tools. */
export type BuiltinToolName = "calculator" | "lookup";

const defaultDescriptions: Record<BuiltinToolName, string> = {
  calculator:
    "Evaluate an arithmetic expression (digits, + - * / ( ) . % and spaces) and return the number.",
  lookup: "Look up an entry of the knowledge base by its exact name and return its facts.",
};

/** A function tool taking one string argument. */
function oneArgumentTool(name: string, argument: string, description: string): ToolSpec {
  return {
    name,
    description,
    parameters: {
      type: "object",
      properties: { [argument]: { type: "string" } },
      required: [argument],
      additionalProperties: false,
    },
  };
}

/** The tools a built-in harness offers (enabled ones, in a fixed order, with the harness's descriptions). */
export function enabledTools(config: HarnessConfig): ToolSpec[] {
  const { calculator, lookup } = config.tools;
  const specs: ToolSpec[] = [];
  if (calculator.enabled)
    specs.push(
      oneArgumentTool(
        "calculator",
        "expression",
        calculator.description ?? defaultDescriptions.calculator,
      ),
    );
  if (lookup.enabled)
    specs.push(oneArgumentTool("lookup", "key", lookup.description ?? defaultDescriptions.lookup));
  return specs;
}

/** What a tool call produced, before the observation policy shapes it. */
export interface ToolOutcome {
  text: string;
  error: boolean;
  /** The arguments were not a JSON object with the expected field. */
  invalidCall: boolean;
}

/**
 * Runs one call of a built-in tool. Arguments are the raw JSON the model wrote; malformed JSON
 * or a missing field is an `error:` result flagged `invalidCall`; an unknown or disabled tool is
 * an error too.
 */
export function runTool(input: {
  name: string;
  arguments: string;
  harness: LoadedHarness;
  offered: ToolSpec[];
}): ToolOutcome {
  if (!input.offered.some((spec) => spec.name === input.name)) {
    const names = input.offered.map((spec) => spec.name).join(", ") || "none";
    return {
      text: `error: unknown tool '${input.name}' (available: ${names})`,
      error: true,
      invalidCall: false,
    };
  }
  const field = input.name === "calculator" ? "expression" : "key";
  const value = readField(input.arguments, field);
  if (value === null) {
    return {
      text: `error: arguments must be a JSON object like {"${field}": "..."}`,
      error: true,
      invalidCall: true,
    };
  }
  if (input.name === "calculator") {
    const result = evaluateExpression(value);
    return result.ok
      ? { text: result.text, error: false, invalidCall: false }
      : { text: result.error, error: true, invalidCall: false };
  }
  const result = knowledgeOf(input.harness).find(value);
  return result.ok
    ? { text: result.text, error: false, invalidCall: false }
    : { text: result.error, error: true, invalidCall: false };
}

/** Each harness's knowledge files, indexed the first time a rollout of it looks something up. */
const knowledgeIndexes = new WeakMap<LoadedHarness, KnowledgeIndex>();

function knowledgeOf(harness: LoadedHarness): KnowledgeIndex {
  let index = knowledgeIndexes.get(harness);
  if (!index) {
    const files = (harness.config?.tools.lookup.files ?? []).map(
      (path) => harnessFile(harness.files, path) ?? "",
    );
    index = new KnowledgeIndex(files);
    knowledgeIndexes.set(harness, index);
  }
  return index;
}

function readField(raw: string, field: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.trim() === "" ? "null" : raw);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
  const value = (parsed as Record<string, unknown>)[field];
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return null;
}
