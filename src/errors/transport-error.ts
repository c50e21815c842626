import { EcdysisError } from "./ecdysis-error.js";

/** A call to an outside service (LLM endpoint, GitHub, git remote) failed. */
export class TransportError extends EcdysisError {
  readonly code = "transport";
  constructor(
    readonly service: "llm" | "github" | "git" | "process",
    message: string,
    readonly details: { status?: number; retryable: boolean; cause?: unknown },
  ) {
    super(message);
    this.name = "TransportError";
  }
}
