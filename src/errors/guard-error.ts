import { escapeInvisible } from "../safety/guard-text.js";
import { EcdysisError } from "./ecdysis-error.js";

/**
 * A safety rule refused something (an edit outside the allowlist, a leaked answer, a secret).
 * Invisible characters in the message are shown escaped.
 */
export class GuardError extends EcdysisError {
  readonly code = "guard";
  constructor(
    readonly guard: string,
    message: string,
  ) {
    super(escapeInvisible(message));
    this.name = "GuardError";
  }
}
