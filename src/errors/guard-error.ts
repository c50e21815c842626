import { EcdysisError } from "./ecdysis-error.js";

/** A safety rule refused something (an edit outside the allowlist, a leaked answer, a secret). */
export class GuardError extends EcdysisError {
  readonly code = "guard";
  constructor(
    readonly guard: string,
    message: string,
  ) {
    super(message);
    this.name = "GuardError";
  }
}
