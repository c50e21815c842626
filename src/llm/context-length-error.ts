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

/** The token counts a context-length refusal states, when it states them. */
export interface StatedContext {
  /** The model's context, in tokens. */
  limitTokens?: number;
  /** What the refused prompt came to, in tokens. */
  promptTokens?: number;
}

/** Each service's sentence with both counts: which group is the limit, which the prompt. */
const statedForms: { pattern: RegExp; limit: number; prompt: number }[] = [
  // OpenAI, Azure, vLLM: "maximum context length is 8192 tokens. However, you requested 9000 tokens"
  {
    pattern:
      /maximum context length is (\d+) tokens[\s\S]*?(?:requested|resulted in) (\d+) tokens/i,
    limit: 1,
    prompt: 2,
  },
  // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  { pattern: /prompt is too long: (\d+) tokens > (\d+)/i, limit: 2, prompt: 1 },
  // Gemini: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)"
  { pattern: /input token count \((\d+)\) exceeds[^(]*\((\d+)\)/i, limit: 2, prompt: 1 },
  // llama.cpp: "request (5000 tokens) exceeds the available context size (4096 tokens)"
  {
    pattern: /request \((\d+) tokens\) exceeds the available context size \((\d+)/i,
    limit: 2,
    prompt: 1,
  },
  // Mistral: "Prompt contains 40000 tokens … too large for model with 32768 maximum context length"
  {
    pattern: /contains (\d+) tokens[\s\S]*?with (\d+) maximum context length/i,
    limit: 2,
    prompt: 1,
  },
];

/** Reads the limit and the prompt's size from a refusal's words (either may be missing). */
export function statedContext(message: string): StatedContext {
  for (const form of statedForms) {
    const match = message.match(form.pattern);
    if (match)
      return { limitTokens: Number(match[form.limit]), promptTokens: Number(match[form.prompt]) };
  }
  const limit = message.match(/maximum context length is (\d+)/i)?.[1];
  return limit ? { limitTokens: Number(limit) } : {};
}

/**
 * Share of the stated limit a refitted prompt aims at: characters per token differ between the
 * parts of a prompt (JSON, prose, names) and the server adds its chat template.
 */
const refitMargin = 0.95;

/**
 * The endpoint refused a request as longer than the model's context. Not a fault of the endpoint
 * (retrying sends the same prompt): the caller fits the prompt to what the refusal says the model
 * takes (`charsThatFit`) and sends it again — the agent drops old context and cuts overlong
 * messages, a role trims its evidence; when that is not enough, an agent turn is a
 * `context-overflow` of the rollout and a role call a clear stop.
 */
export class ContextLengthError extends TransportError {
  /** The limit and the prompt's size as the server stated them. */
  readonly stated: StatedContext;

  constructor(message: string, details: { status?: number; cause?: unknown }) {
    super("llm", message, { ...details, retryable: false });
    this.name = "ContextLengthError";
    this.stated = statedContext(message);
  }

  /**
   * How many characters of the refused prompt (which had `sentChars`) should fit: scaled by the
   * stated limit over the stated prompt size, with a margin; half when the server gave no counts.
   */
  charsThatFit(sentChars: number): number {
    const { limitTokens, promptTokens } = this.stated;
    if (limitTokens && promptTokens && promptTokens > limitTokens)
      return Math.floor(((sentChars * limitTokens) / promptTokens) * refitMargin);
    return Math.floor(sentChars / 2);
  }
}
