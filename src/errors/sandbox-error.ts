import { EcdysisError } from "./ecdysis-error.js";

/**
 * A command harness cannot run as the config asks: the sandbox is required (or the code is
 * untrusted) and the machine cannot build one. One line, said before any rollout: what is
 * missing and what to install or set. Exit 4.
 */
export class SandboxUnavailableError extends EcdysisError {
  readonly code = "sandbox";
  override readonly exitCode = 4;
  constructor(
    /** Why the sandbox cannot be built (`bubblewrap (bwrap) is not installed`). */
    readonly reason: string,
    /** What makes it possible (`install bubblewrap: apt-get install bubblewrap`). */
    readonly fix: string,
    /** What was refused (`evolve runs LLM-edited code`). */
    readonly refused: string,
  ) {
    super(`sandbox unavailable: ${reason}; ${refused}. Fix: ${fix} — or set harness.sandbox: off`);
    this.name = "SandboxUnavailableError";
  }
}
