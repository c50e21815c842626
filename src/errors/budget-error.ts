import { EcdysisError } from "./ecdysis-error.js";

/** A configured budget (rollouts, tokens, cost, wall time) ran out. */
export class BudgetExhaustedError extends EcdysisError {
  readonly code = "budget";
  constructor(
    readonly resource: "rollouts" | "tokens" | "costUsd" | "wallMs",
    readonly limit: number,
  ) {
    super(
      `budget exhausted: ${resource} reached its limit of ${limit}; raise evolve.budget.${resource} to continue`,
    );
    this.name = "BudgetExhaustedError";
  }
}
