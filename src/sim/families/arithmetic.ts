import type { Rng } from "../draw.js";
import type { NameBook } from "../names.js";
import { type GeneratedItem, numericScorer, type Problem } from "./problem.js";

const name = "([A-Z][a-z]+ [A-Z][a-z]+)";

interface Template {
  pattern: RegExp;
  make(rng: Rng, who: string): { question: string; value: number };
  expression(numbers: number[]): string;
}

const templates: Template[] = [
  {
    pattern: new RegExp(
      `^${name} packs (\\d+) crates of (\\d+) jars each, gives away (\\d+) jars, and shares the rest equally among (\\d+) market stalls\\. How many jars does each stall get\\?$`,
    ),
    make(rng, who) {
      const a = rng.int(6, 30);
      const b = rng.int(6, 30);
      const d = rng.int(2, 9);
      const q = rng.int(1, Math.floor((a * b - 1) / d));
      const c = a * b - q * d;
      return {
        question: `${who} packs ${a} crates of ${b} jars each, gives away ${c} jars, and shares the rest equally among ${d} market stalls. How many jars does each stall get?`,
        value: q,
      };
    },
    expression: ([a, b, c, d]) => `(${a} * ${b} - ${c}) / ${d}`,
  },
  {
    pattern: new RegExp(
      `^${name} buys (\\d+) boxes of (\\d+) nails and (\\d+) boxes of (\\d+) screws\\. How many items does [A-Z][a-z]+ [A-Z][a-z]+ buy in total\\?$`,
    ),
    make(rng, who) {
      const [a, b, c, d] = [rng.int(3, 40), rng.int(12, 99), rng.int(3, 40), rng.int(12, 99)];
      return {
        question: `${who} buys ${a} boxes of ${b} nails and ${c} boxes of ${d} screws. How many items does ${who} buy in total?`,
        value: a * b + c * d,
      };
    },
    expression: ([a, b, c, d]) => `${a} * ${b} + ${c} * ${d}`,
  },
  {
    pattern: new RegExp(
      `^${name} saves (\\d+) coins a week for (\\d+) weeks, then spends (\\d+) coins on a lantern\\. How many coins are left\\?$`,
    ),
    make(rng, who) {
      const a = rng.int(7, 60);
      const b = rng.int(5, 52);
      const c = rng.int(1, a * b - 1);
      return {
        question: `${who} saves ${a} coins a week for ${b} weeks, then spends ${c} coins on a lantern. How many coins are left?`,
        value: a * b - c,
      };
    },
    expression: ([a, b, c]) => `${a} * ${b} - ${c}`,
  },
];

/** Generates a multi-operation word problem about a fictional person. */
export function generateArithmetic(rng: Rng, names: NameBook): GeneratedItem {
  const who = names.person();
  const template = rng.pick(templates);
  const { question, value } = template.make(rng, who);
  return { question, expected: value, keyPhrase: who, scorer: numericScorer };
}

/** Parses an arithmetic word problem and computes its answer; null when the text is not one. */
export function parseArithmetic(text: string): Problem | null {
  for (const template of templates) {
    const match = template.pattern.exec(text.trim());
    if (!match) continue;
    const numbers = match.slice(2).map(Number);
    const expression = template.expression(numbers);
    return {
      kind: "compute",
      family: "arithmetic",
      keyPhrase: match[1],
      expression,
      value: evaluate(expression),
    };
  }
  return null;
}

/** Evaluates the sim's own expressions (numbers, + - * /, parentheses) without eval. */
export function evaluate(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/()]/g) ?? [];
  let index = 0;
  const primary = (): number => {
    const token = tokens[index++];
    if (token === "(") {
      const value = sum();
      index++;
      return value;
    }
    return Number(token);
  };
  const product = (): number => {
    let value = primary();
    while (tokens[index] === "*" || tokens[index] === "/") {
      const op = tokens[index++];
      const right = primary();
      value = op === "*" ? value * right : value / right;
    }
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (tokens[index] === "+" || tokens[index] === "-") {
      const op = tokens[index++];
      const right = product();
      value = op === "+" ? value + right : value - right;
    }
    return value;
  };
  return sum();
}
