import { recognise } from "../families/recognise.js";
import type { SimRequest } from "../sim-request.js";

/** Loose JSON value read from a role's evidence block. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object from the evidence block. */
export type JsonObject = { [key: string]: Json };

/** The last fenced ```json block of the last user message, parsed; {} when there is none. */
export function evidenceBlock(request: SimRequest): JsonObject {
  const last = request.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
  const blocks = [...last.matchAll(/```json\s*\n([\s\S]*?)\n?```/g)];
  const text = blocks.at(-1)?.[1];
  if (!text) return {};
  try {
    const value = JSON.parse(text) as Json;
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** Type guard for JSON objects. */
export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads an array field ([] when absent or not an array). */
export function list(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

/** Reads an array of objects. */
export function objects(value: Json | undefined): JsonObject[] {
  return list(value).filter(isObject);
}

/** Reads a string field ("" when absent); objects are stringified. */
export function text(value: Json | undefined): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Reads a path like `agent_loop.max_steps` from a harness config object. */
export function setting(config: Json | undefined, path: string): Json | undefined {
  let current: Json | undefined = config;
  for (const part of path.split(".")) current = isObject(current) ? current[part] : undefined;
  return current;
}

/** Cause labels the sim uses (the kebab-case labels the failure-notes prompt suggests). */
export type Cause =
  | "step-budget-exhausted"
  | "answer-format-drift"
  | "gave-up-after-tool-error"
  | "task-lost-in-context"
  | "arithmetic-slip"
  | "unknown-task"
  | "wrong-answer";

/** Event kinds of an example, whether listed as strings or as {kind} objects. */
function eventKinds(example: JsonObject): string[] {
  return list(example.events).map((event) => (isObject(event) ? text(event.kind) : text(event)));
}

/** Reads the deterministic signals of one failed run and names its cause. */
export function classifyFailure(example: JsonObject, harnessConfig?: Json): Cause {
  const events = eventKinds(example);
  const output = text(example.output);
  const calls = objects(example.toolCalls);
  if (events.includes("step-limit")) return "step-budget-exhausted";
  if (/don't know how to do this task/i.test(output)) return "unknown-task";
  if (/cannot see the question/i.test(output)) return "task-lost-in-context";
  const toolError = calls.some((call) => call.error === true) || events.includes("tool-error");
  if (toolError && /returned an error|cannot finish/i.test(output))
    return "gave-up-after-tool-error";
  const answer = example.answer;
  if (events.includes("no-answer") || (answer === null && output !== ""))
    return "answer-format-drift";
  const problem = recognise(text(example.task));
  const usedCalculator = calls.some((call) => text(call.name) === "calculator");
  const calculatorOn = setting(harnessConfig, "tools.calculator.enabled") === true;
  if (problem?.kind === "compute" && !usedCalculator && !calculatorOn) return "arithmetic-slip";
  return "wrong-answer";
}

/** Maps a free-form cause label or pattern name onto one of the sim's causes. */
export function canonicalCause(label: string): Cause {
  const value = label.toLowerCase();
  if (/unknown|not[- ]know|outside/.test(value)) return "unknown-task";
  if (/step|budget|limit|turn|chain|cut-short/.test(value)) return "step-budget-exhausted";
  if (/lost|context|statement|overflow|question|truncat/.test(value)) return "task-lost-in-context";
  if (/tool|gave-up|give-up|giveup|retry|abandon/.test(value)) return "gave-up-after-tool-error";
  if (/format|no-answer|missing|answer-line|unparse|extract/.test(value))
    return "answer-format-drift";
  if (/arith|calcul|comput|math/.test(value)) return "arithmetic-slip";
  return "wrong-answer";
}

/** The most frequent item of a list (first on ties). */
export function majority<T>(items: T[]): T | undefined {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  let best: T | undefined;
  let bestCount = 0;
  for (const [item, count] of counts) if (count > bestCount) [best, bestCount] = [item, count];
  return best;
}
