import { canonicalNumber, type NormalToken } from "./normal-form.js";

/**
 * Numbers a text states without writing their digits: spelled out in English (`two hundred
 * eighty-seven`, `4.5 million`) or as one arithmetic step over two numbers (`7 times 41`,
 * `7 × 41`, `280 + 7`, `the product of 7 and 41`). A model that "helps" writes these; the
 * content guards read them for the held-out answers, which are few and sealed.
 */

/** `zero` … `nineteen`, by value. */
const units: Readonly<Record<string, number>> = Object.fromEntries(
  (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen " +
    "fifteen sixteen seventeen eighteen nineteen"
  )
    .split(" ")
    .map((word, value) => [word, value]),
);
/** `twenty` … `ninety` (and the common misspelling `fourty`). */
const tens: Readonly<Record<string, number>> = {
  ...Object.fromEntries(
    "twenty thirty forty fifty sixty seventy eighty ninety"
      .split(" ")
      .map((word, index) => [word, 20 + 10 * index]),
  ),
  fourty: 40,
};
const scales: Readonly<Record<string, number>> = { thousand: 1e3, million: 1e6, billion: 1e9 };

type Operation = "add" | "subtract" | "multiply" | "divide";
const operatorSymbols: Readonly<Record<string, Operation>> = {
  "+": "add",
  "-": "subtract",
  "×": "multiply",
  "*": "multiply",
  "·": "multiply",
  "/": "divide",
  "÷": "divide",
};
/** Operator words, one or two tokens long (the second token listed after a space). */
const operatorWords: Readonly<Record<string, Operation>> = {
  plus: "add",
  minus: "subtract",
  less: "subtract",
  times: "multiply",
  x: "multiply",
  "multiplied by": "multiply",
  "divided by": "divide",
  over: "divide",
};
/** `the product of A and B`, `the sum of A and B`, … */
const namedOperations: Readonly<Record<string, Operation>> = {
  sum: "add",
  product: "multiply",
  difference: "subtract",
  quotient: "divide",
};

/** A value read from a text, with the line it is on. */
export interface DerivedNumber {
  value: string;
  line: number;
}

/** A number in the stream: its value and the tokens it spans. */
interface Term {
  value: number;
  start: number;
  end: number;
}

/**
 * Every number `tokens` state by words or by one arithmetic step (see the module comment),
 * as canonical absolute values. Digits alone are not repeated here: they are the tokens'.
 */
export function derivedNumbers(tokens: readonly NormalToken[]): DerivedNumber[] {
  const found: DerivedNumber[] = [];
  const terms: Term[] = [];
  for (let index = 0; index < tokens.length; ) {
    const term = readTerm(tokens, index);
    if (!term) {
      index += 1;
      continue;
    }
    terms.push(term);
    if (term.end - term.start > 1 || tokens[term.start].kind === "word")
      found.push({ value: valueText(term.value), line: tokens[term.start].line });
    index = term.end;
  }
  for (let index = 0; index + 1 < terms.length; index += 1) {
    const [left, right] = [terms[index], terms[index + 1]];
    const operation =
      operatorBetween(tokens, left.end, right.start) ?? namedOperation(tokens, left, right);
    if (!operation) continue;
    const value = apply(operation, left.value, right.value);
    if (value !== null) found.push({ value: valueText(value), line: tokens[left.start].line });
  }
  return found.filter((each) => each.value !== "");
}

/** The number starting at `index`: digits (with a scale word after them) or spelled words. */
function readTerm(tokens: readonly NormalToken[], index: number): Term | null {
  const token = tokens[index];
  if (token.kind === "number") {
    const value = Number(token.values[0]);
    const scale = scales[tokens[index + 1]?.key ?? ""];
    return scale
      ? { value: value * scale, start: index, end: index + 2 }
      : { value, start: index, end: index + 1 };
  }
  return spelled(tokens, index);
}

/** A spelled-out number starting at `index` (`two hundred and eighty seven`), or null. */
function spelled(tokens: readonly NormalToken[], index: number): Term | null {
  let total = 0;
  let current = 0;
  let end = index;
  let last: "unit" | "ten" | "hundred" | "scale" | null = null;
  for (let at = index; at < tokens.length; at += 1) {
    const { key, kind } = tokens[at];
    // `forty-two`: the hyphen joins a ten and a unit.
    if (key === "-" && !tokens[at].spaced && last === "ten" && tokens[at + 1]?.key in units)
      continue;
    if (kind !== "word") break;
    if (key in units && last !== "unit") {
      current += units[key];
      last = "unit";
    } else if (key in tens && last !== "unit" && last !== "ten") {
      current += tens[key];
      last = "ten";
    } else if (key === "hundred" && last !== null && last !== "hundred") {
      current *= 100;
      last = "hundred";
    } else if (key in scales && last !== null && last !== "scale") {
      total += current * scales[key];
      current = 0;
      last = "scale";
    } else if (
      key === "and" &&
      (last === "hundred" || last === "scale") &&
      isNumberWord(tokens[at + 1])
    ) {
      continue;
    } else break;
    end = at + 1;
  }
  return end > index ? { value: total + current, start: index, end } : null;
}

function isNumberWord(token: NormalToken | undefined): boolean {
  return token?.kind === "word" && (token.key in units || token.key in tens);
}

/** The operation written between two terms (a symbol, or one or two operator words). */
function operatorBetween(
  tokens: readonly NormalToken[],
  from: number,
  to: number,
): Operation | undefined {
  const between = tokens.slice(from, to);
  if (between.length === 1 && between[0].kind === "op") return operatorSymbols[between[0].key];
  if (between.length === 0 || between.length > 2 || between.some((token) => token.kind !== "word"))
    return undefined;
  return operatorWords[between.map((token) => token.key).join(" ")];
}

/** `the product of A and B`: the operation named before `left`, with `and` between the two. */
function namedOperation(
  tokens: readonly NormalToken[],
  left: Term,
  right: Term,
): Operation | undefined {
  if (right.start !== left.end + 1 || tokens[left.end].key !== "and") return undefined;
  if (tokens[left.start - 1]?.key !== "of") return undefined;
  return namedOperations[tokens[left.start - 2]?.key ?? ""];
}

function apply(operation: Operation, left: number, right: number): number | null {
  switch (operation) {
    case "add":
      return left + right;
    case "subtract":
      return left - right;
    case "multiply":
      return left * right;
    case "divide":
      return right === 0 ? null : left / right;
  }
}

/** A computed value as the normal form writes it (absolute, ≤ 6 decimals); "" when not exact enough. */
function valueText(value: number): string {
  const magnitude = Math.abs(value);
  if (!Number.isFinite(magnitude) || magnitude > Number.MAX_SAFE_INTEGER) return "";
  const [integer, fraction = ""] = magnitude.toFixed(6).split(".");
  return canonicalNumber(integer, fraction);
}
