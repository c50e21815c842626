// Arithmetic only (numbers, + - * / %, parentheses), by recursive descent: never eval.
export function calculate(expression) {
  const tokens = String(expression).match(/\d+(?:\.\d+)?|[-+*/%()]|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const next = () => tokens[at++];
  const primary = () => {
    const token = next();
    if (token === "(") {
      const value = sum();
      if (next() !== ")") throw new Error("missing ')'");
      return value;
    }
    if (token === "-") return -primary();
    if (token === "+") return primary();
    if (token !== undefined && /^\d/.test(token)) return Number(token);
    throw new Error(`invalid character '${token ?? "end"}' in expression`);
  };
  const product = () => {
    let value = primary();
    while (["*", "/", "%"].includes(peek())) {
      const op = next();
      const right = primary();
      value = op === "*" ? value * right : op === "/" ? value / right : value % right;
    }
    return value;
  };
  const sum = () => {
    let value = product();
    while (["+", "-"].includes(peek()))
      value = next() === "+" ? value + product() : value - product();
    return value;
  };
  const value = sum();
  if (at !== tokens.length) throw new Error(`invalid character '${tokens[at]}' in expression`);
  return String(Number.isInteger(value) ? value : Number(value.toPrecision(12)));
}

/** The tool's result and whether it failed, as the Python example's calculator answers. */
export function runCalculator(argumentsText) {
  try {
    const args = JSON.parse(argumentsText || "{}");
    return { result: calculate(args.expression ?? ""), error: false };
  } catch (error) {
    return { result: `error: ${error.message}`, error: true };
  }
}
