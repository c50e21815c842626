import type { Rng } from "../draw.js";
import type { NameBook } from "../names.js";
import { evaluate } from "./arithmetic.js";
import { formatNumber, type GeneratedItem, numericScorer, type Problem } from "./problem.js";

const name = "([A-Z][a-z]+ [A-Z][a-z]+)";
const num = "(\\d+(?:\\.\\d+)?)";

interface Template {
  pattern: RegExp;
  make(rng: Rng, who: string): string;
  expression(numbers: string[]): string;
}

const templates: Template[] = [
  {
    pattern: new RegExp(
      `^${name} walked ${num} kilometres and ${num} metres along the canal\\. How many metres is that in total\\?$`,
    ),
    make: (rng, who) =>
      `${who} walked ${rng.int(2, 40)} kilometres and ${rng.int(10, 990)} metres along the canal. How many metres is that in total?`,
    expression: ([km, m]) => `${km} * 1000 + ${m}`,
  },
  {
    pattern: new RegExp(
      `^${name}'s recipe needs ${num} kilograms of flour\\. How many grams is that\\?$`,
    ),
    make: (rng, who) =>
      `${who}'s recipe needs ${formatNumber(rng.int(101, 9999) / 100)} kilograms of flour. How many grams is that?`,
    expression: ([kg]) => `${kg} * 1000`,
  },
  {
    pattern: new RegExp(
      `^${name} spent ${num} hours and ${num} minutes at the workshop\\. How many minutes is that\\?$`,
    ),
    make: (rng, who) =>
      `${who} spent ${rng.int(2, 30)} hours and ${rng.int(1, 59)} minutes at the workshop. How many minutes is that?`,
    expression: ([h, m]) => `${h} * 60 + ${m}`,
  },
  {
    pattern: new RegExp(
      `^${name} has a rope ${num} feet long and cuts off ${num} inches\\. How many inches of rope remain\\?$`,
    ),
    make: (rng, who) =>
      `${who} has a rope ${rng.int(8, 90)} feet long and cuts off ${rng.int(1, 80)} inches. How many inches of rope remain?`,
    expression: ([feet, inches]) => `${feet} * 12 - ${inches}`,
  },
];

/** Generates a unit-conversion problem about a fictional person. */
export function generateUnitConversion(rng: Rng, names: NameBook): GeneratedItem {
  const who = names.person();
  const template = rng.pick(templates);
  const question = template.make(rng, who);
  const parsed = parseUnitConversion(question);
  if (parsed?.kind !== "compute")
    throw new Error(`unit-conversion: cannot parse own task: ${question}`);
  return {
    question,
    expected: Number(formatNumber(parsed.value)),
    keyPhrase: who,
    scorer: numericScorer,
  };
}

/** Parses a unit-conversion problem and computes its answer; null when the text is not one. */
export function parseUnitConversion(text: string): Problem | null {
  for (const template of templates) {
    const match = template.pattern.exec(text.trim());
    if (!match) continue;
    const expression = template.expression(match.slice(2));
    return {
      kind: "compute",
      family: "unit-conversion",
      keyPhrase: match[1],
      expression,
      value: Number(formatNumber(evaluate(expression))),
    };
  }
  return null;
}
