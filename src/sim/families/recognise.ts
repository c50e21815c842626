import { parseArithmetic } from "./arithmetic.js";
import { parseDateReasoning } from "./date-reasoning.js";
import { parseExtraction } from "./extraction.js";
import { parseMultiHop } from "./multi-hop.js";
import type { Problem } from "./problem.js";
import { parseUnitConversion } from "./unit-conversion.js";

/** Marker between a long preamble and the task statement. */
export const statementMarker = "\n\nTask: ";

const parsers = [
  parseArithmetic,
  parseUnitConversion,
  parseMultiHop,
  parseDateReasoning,
  parseExtraction,
];

/** Recognises a task statement from its text alone (after any preamble); null when none. */
export function recognise(text: string): Problem | null {
  const at = text.lastIndexOf(statementMarker);
  const statement = at >= 0 ? text.slice(at + statementMarker.length) : text;
  for (const parse of parsers) {
    const problem = parse(statement);
    if (problem) return problem;
  }
  return null;
}
