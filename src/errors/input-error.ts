import { escapeInvisible } from "../safety/guard-text.js";
import { EcdysisError } from "./ecdysis-error.js";

/**
 * The user's mistake in a file they wrote (config, tasks, harness, world): names the file, the
 * line when known and the field, and says what to fix. Nothing has been written when it is thrown.
 * Invisible and control characters in the message are shown as `\u{…}` escapes: the input may
 * hold them, and a reader must see what is there.
 */
export class InputError extends EcdysisError {
  readonly code = "input";
  override readonly exitCode = 2;
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly location: { line?: number; field?: string } = {},
  ) {
    const where = [
      file,
      location.line ? `line ${location.line}` : "",
      location.field ? `'${location.field}'` : "",
    ]
      .filter(Boolean)
      .join(": ");
    super(escapeInvisible(`${where}: ${problem}`));
    this.name = "InputError";
  }
}
