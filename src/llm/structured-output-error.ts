import { EcdysisError } from "../errors/ecdysis-error.js";

/**
 * A model's structured output stayed unusable (no JSON, or JSON that fails the schema) after
 * the bounded repairs. Carries an excerpt of the last raw reply and the validation issues.
 */
export class StructuredOutputError extends EcdysisError {
  readonly code = "structured-output";
  constructor(
    readonly schemaName: string,
    readonly attempts: number,
    readonly issues: string[],
    readonly rawExcerpt: string,
  ) {
    super(
      `structured output '${schemaName}' was still invalid after ${attempts} attempt(s): ${issues.slice(0, 3).join("; ") || "no usable reply"}` +
        ` — last reply began: ${JSON.stringify(rawExcerpt.slice(0, 200))}. A more capable model, or a server that honours response_format, usually fixes this`,
    );
    this.name = "StructuredOutputError";
  }
}
