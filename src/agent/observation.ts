import type { HarnessConfig } from "../config/harness-schema.js";

/** A tool result as the model will see it. */
export interface Observation {
  text: string;
  /** Characters cut by the `observation.max_chars` limit (0 when nothing was cut). */
  truncatedChars: number;
}

/**
 * Applies the harness's observation policy to a tool result: output longer than
 * `observation.max_chars` is cut (and marked), and with `on_error: hint` an error result gets a
 * blank line and `error_hint` appended (after truncation, so the hint always survives).
 */
export function shapeObservation(input: {
  text: string;
  error: boolean;
  config: HarnessConfig["observation"];
}): Observation {
  let text = input.text;
  let truncatedChars = 0;
  if (text.length > input.config.max_chars) {
    truncatedChars = text.length - input.config.max_chars;
    text = `${text.slice(0, input.config.max_chars)}\n[output truncated: ${truncatedChars} more characters]`;
  }
  if (input.error && input.config.on_error === "hint")
    text = `${text}\n\n${input.config.error_hint}`;
  return { text, truncatedChars };
}
