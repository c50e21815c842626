import { describe, expect, it } from "vitest";
import { evaluateExpression } from "./calculator.js";

const value = (expression: string) => {
  const result = evaluateExpression(expression);
  if (!result.ok) throw new Error(result.error);
  return result.text;
};
const error = (expression: string) => {
  const result = evaluateExpression(expression);
  if (result.ok) throw new Error(`expected an error, got ${result.text}`);
  return result.error;
};

describe("calculator", () => {
  it("respects precedence, associativity, parentheses and unary signs", () => {
    expect(value("2 + 3 * 4")).toBe("14");
    expect(value("(2 + 3) * 4")).toBe("20");
    expect(value("10 - 4 - 3")).toBe("3");
    expect(value("100 / 10 / 5")).toBe("2");
    expect(value("-3 * -(2 + 1)")).toBe("9");
    expect(value("1.5 * .5")).toBe("0.75");
    expect(value("0.1 + 0.2")).toBe("0.3");
  });

  it("reads % as percent after a number and as remainder between numbers", () => {
    expect(value("80 * 15%")).toBe("12");
    expect(value("10 % 3")).toBe("1");
    expect(value("50%")).toBe("0.5");
  });

  it("refuses anything but arithmetic, without evaluating it", () => {
    expect(error("process.exit()")).toBe("error: invalid character 'p' in expression");
    expect(error("2 ** 3; require('fs')")).toMatch(/^error: invalid character ';'/);
    expect(error("Math.max(1,2)")).toMatch(/^error: invalid character 'M'/);
    expect(error("1,000")).toBe("error: invalid character ',' in expression");
  });

  it("reports malformed expressions and division by zero as errors", () => {
    expect(error("4 / (2 - 2)")).toBe("error: division by zero");
    expect(error("(1 + 2")).toMatch(/expected '\)'/);
    expect(error("1 +")).toMatch(/expected a number at end/);
    expect(error("2 ** 3")).toMatch(/expected a number '\*'/);
    expect(error("   ")).toBe("error: empty expression");
    expect(error(`${"(".repeat(100)}1${")".repeat(100)}`)).toMatch(/nested too deeply/);
  });
});
