import { TransportError } from "../errors/transport-error.js";

/**
 * Words real servers use when a prompt is longer than the model's context: OpenAI and Azure
 * (`maximum context length is …`, `context_length_exceeded`), vLLM (the same), Anthropic
 * (`prompt is too long: … tokens > … maximum`), Gemini (`The input token count (…) exceeds the
 * maximum number of tokens allowed`), llama.cpp (`exceeds the available context size`), Mistral
 * (`too large for model with … maximum context length`), LiteLLM (`ContextWindowExceededError`).
 */
const contextWording =
  /context[_ ]length|context window|available context size|maximum context|prompt is too long|input token count[\s\S]*exceeds|too large for model|ContextWindowExceeded|reduce the length of the messages/i;

/** True when a refusal (status, message, code) says the prompt does not fit the context. */
export function isContextLengthRefusal(refusal: {
  status: number;
  message: string;
  code?: string | null;
}): boolean {
  if (refusal.status !== 400 && refusal.status !== 413 && refusal.status !== 422) return false;
  return refusal.code === "context_length_exceeded" || contextWording.test(refusal.message);
}

/**
 * The endpoint refused a request as longer than the model's context. Not a fault of the endpoint
 * (retrying sends the same prompt): on an agent turn it is the harness's doing (its context
 * budget), recorded as a `context-overflow` of the rollout; on a role call the evidence is
 * trimmed once.
 */
export class ContextLengthError extends TransportError {
  constructor(message: string, details: { status?: number; cause?: unknown }) {
    super("llm", message, { ...details, retryable: false });
    this.name = "ContextLengthError";
  }
}
