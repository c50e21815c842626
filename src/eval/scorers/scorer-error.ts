import { EcdysisError } from "../../errors/ecdysis-error.js";

/**
 * The user's scoring command did not give a verdict: it exited with a code other than 0 (pass) or
 * 1 (fail), was killed, timed out, could not start, or wrote to stderr and nothing to stdout
 * (a crash). Every task would read as a wrong answer, so the evaluation stops before any refiner
 * call. Carries what the command said on stderr.
 */
export class ScorerError extends EcdysisError {
  readonly code = "scorer";
  constructor(
    readonly command: string,
    readonly problem: string,
    readonly stderr: string,
  ) {
    const said = stderr.trim()
      ? `; stderr: ${stderr.trim().replace(/\s+/g, " ").slice(0, 1_000)}`
      : "";
    super(
      `the scoring command '${command}' gave no verdict: ${problem}${said} — fix the command (it gets the task and the output as JSON on stdin and exits 0 for pass, 1 for fail; docs/scorers.md)`,
    );
    this.name = "ScorerError";
  }
}
