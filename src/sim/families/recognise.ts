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
  const direct = parseAny(statement);
  if (direct) return direct;
  // Evidence shown to the refiner roles may cut the middle of a long input; the statement is
  // then a suffix starting at some sentence.
  const tail = text.slice(-600);
  for (const match of tail.matchAll(/(?:^|[\s…])(?=[A-Z])/g)) {
    const problem = parseAny(tail.slice(match.index + match[0].length));
    if (problem) return problem;
  }
  return null;
}

function parseAny(statement: string): Problem | null {
  for (const parse of parsers) {
    const problem = parse(statement);
    if (problem) return problem;
  }
  return null;
}
