import { type ChatBody, type Downgrade, mapBody, type WireSettings } from "./capabilities.js";
import type { CapabilityState } from "./capability-state.js";
import { redactSecret } from "./redact.js";
import { serverReason } from "./server-reason.js";
import { refusedParameter } from "./unsupported-parameter.js";

/** What to send next after the endpoint refused a body (see {@link stepDownBody}). */
export interface BodyStep {
  /** The original body mapped under the stepped-down settings: send this. */
  body: ChatBody;
  /** The settings it was mapped under (pass them as `sent` if this one is refused too). */
  settings: WireSettings;
  /** The step taken (absent when a concurrent call had already taken it). */
  downgrade?: Downgrade;
}

/**
 * The capability step-down on a raw chat-completions body, for code that forwards bodies it did
 * not build (the model gateway of command harnesses). `body` is the body as the caller received
 * it; `sent` the settings the refused request was mapped under (`mapBody(body, sent)`); `status`
 * and `errorBody` the endpoint's answer, whatever its dialect (OpenAI, Azure, Gemini's arrays,
 * Anthropic, vLLM, Ollama, llama.cpp, LiteLLM). Returns the body to send next, or undefined when
 * the answer is not the refusal of a parameter the state may step down (pass the error on).
 * The step is shared with every other caller of `state` and remembered like any other.
 */
export async function stepDownBody(options: {
  body: ChatBody;
  sent: WireSettings;
  status: number;
  errorBody: string;
  state: CapabilityState;
  /** Redacted from the reason kept in the step. */
  apiKey?: string;
}): Promise<BodyStep | undefined> {
  const { body, sent, state } = options;
  const reason = serverReason(options.errorBody);
  const fields = new Set(Object.keys(mapBody(body, sent)));
  const parameter = refusedParameter({ status: options.status, ...reason }, fields);
  if (!parameter) return undefined;
  const outcome = await state.refused(
    parameter,
    sent,
    redactSecret(reason.message, options.apiKey),
  );
  if (outcome.kind !== "retry") return undefined;
  const settings = state.current();
  return { body: mapBody(body, settings), settings, downgrade: outcome.downgrade };
}
