import { EcdysisError } from "./ecdysis-error.js";

/**
 * The agent never ran to an answer (a command harness that crashed or timed out in every
 * rollout), so a run that measures it measured nothing: the message names the counts, the first
 * crash and the fix.
 */
export class AgentUnusableError extends EcdysisError {
  readonly code = "agent-unusable";
  constructor(message: string) {
    super(message);
    this.name = "AgentUnusableError";
  }
}
