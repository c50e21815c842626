/** Outcome of evaluating a calculator expression. */
export type CalculatorResult =
  | { ok: true; value: number; text: string }
  | { ok: false; error: string };

const maxLength = 500;
const maxDepth = 64;

/**
 * The `calculator` tool (docs/sim-protocol.md §1.4): digits, `+ - * / ( ) .`, `%` and spaces
 * only, evaluated by a recursive-descent parser — never `eval`. `%` after a number is a percent
 * (`15%` = 0.15) unless a number or `(` follows, when it is the remainder (`10 % 3` = 1).
 */
export function evaluateExpression(expression: string): CalculatorResult {
  const invalid = [...expression].find((char) => !/[0-9+\-*/().% ]/.test(char));
  if (invalid !== undefined)
    return { ok: false, error: `error: invalid character '${invalid}' in expression` };
  if (expression.length > maxLength)
    return { ok: false, error: `error: expression longer than ${maxLength} characters` };
  if (expression.trim() === "") return { ok: false, error: "error: empty expression" };
  try {
    const parser = new Parser(expression.replace(/ /g, ""));
    const value = parser.parseExpression(0);
    parser.expectEnd();
    if (!Number.isFinite(value))
      return { ok: false, error: "error: result is not a finite number" };
    return { ok: true, value, text: formatNumber(value) };
  } catch (error) {
    if (error instanceof CalculatorError) return { ok: false, error: `error: ${error.message}` };
    throw error;
  }
}

/** Prints a number without floating-point noise (`0.1+0.2` → `0.3`). */
export function formatNumber(value: number): string {
  const rounded = Number.parseFloat(value.toPrecision(15));
  return Object.is(rounded, -0) ? "0" : String(rounded);
}

class CalculatorError extends Error {}

class Parser {
  private position = 0;
  constructor(private readonly source: string) {}

  parseExpression(depth: number): number {
    let value = this.parseTerm(depth);
    for (;;) {
      const char = this.peek();
      if (char !== "+" && char !== "-") return value;
      this.position += 1;
      const right = this.parseTerm(depth);
      value = char === "+" ? value + right : value - right;
    }
  }

  private parseTerm(depth: number): number {
    let value = this.parseUnary(depth);
    for (;;) {
      const char = this.peek();
      if (char !== "*" && char !== "/" && char !== "%") return value;
      this.position += 1;
      const right = this.parseUnary(depth);
      if ((char === "/" || char === "%") && right === 0)
        throw new CalculatorError("division by zero");
      value = char === "*" ? value * right : char === "/" ? value / right : value % right;
    }
  }

  private parseUnary(depth: number): number {
    if (depth > maxDepth) throw new CalculatorError("expression nested too deeply");
    const char = this.peek();
    if (char === "-" || char === "+") {
      this.position += 1;
      const value = this.parseUnary(depth + 1);
      return char === "-" ? -value : value;
    }
    let value = this.parsePrimary(depth);
    while (this.peek() === "%" && !this.startsOperand(this.source[this.position + 1])) {
      this.position += 1;
      value /= 100;
    }
    return value;
  }

  private parsePrimary(depth: number): number {
    const char = this.peek();
    if (char === "(") {
      this.position += 1;
      const value = this.parseExpression(depth + 1);
      if (this.peek() !== ")") throw new CalculatorError(this.describe("expected ')'"));
      this.position += 1;
      return value;
    }
    const match = /^(?:\d+(?:\.\d*)?|\.\d+)/.exec(this.source.slice(this.position));
    if (!match) throw new CalculatorError(this.describe("expected a number"));
    this.position += match[0].length;
    return Number(match[0]);
  }

  private startsOperand(char: string | undefined): boolean {
    return char !== undefined && /[0-9.(]/.test(char);
  }

  expectEnd(): void {
    if (this.position < this.source.length) throw new CalculatorError(this.describe("unexpected"));
  }

  private peek(): string | undefined {
    return this.source[this.position];
  }

  private describe(what: string): string {
    const char = this.peek();
    return char === undefined
      ? `${what} at end of expression`
      : `${what} '${char}' at position ${this.position + 1}`;
  }
}
