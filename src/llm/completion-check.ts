/**
 * A 200 whose body is not a usable chat completion: an HTML login page from a proxy, a body
 * without `choices`, `choices: []`, a message with neither content nor tool calls, or a reply cut
 * at the token limit before anything was written. Such a reply did not come from the model
 * doing its job; it is retried like a transport failure and never cached or scored.
 */
export class NotACompletionError extends Error {
  constructor(
    readonly reason: string,
    /** What to change when it keeps happening (the generic advice otherwise). */
    readonly remedy?: string,
  ) {
    super(reason);
    this.name = "NotACompletionError";
  }
}

/** What is wrong with a 200 body, and what to change when it keeps happening. */
export interface CompletionProblem {
  reason: string;
  remedy?: string;
}

interface LooseBody {
  choices?: unknown;
}
interface LooseChoice {
  finish_reason?: unknown;
  message?: {
    content?: unknown;
    refusal?: unknown;
    tool_calls?: unknown;
    reasoning_content?: unknown;
    reasoning?: unknown;
  } | null;
}

/**
 * What is wrong with a 200 body, or undefined when it is a usable completion. `contentType` is
 * the response's; `tokenLimit` what the request allowed (named in the message). With
 * `shapeOnly` (the preflight's one-token call) an empty but well-formed choice passes. A reply
 * with reasoning and no content (a reasoning model that never closed its thinking) is the model's
 * answer, not a transport failure: it is returned, and callers treat it as no answer.
 */
export function completionProblem(
  body: unknown,
  context: { contentType?: string | null; tokenLimit?: number; shapeOnly?: boolean },
): CompletionProblem | undefined {
  const suffix = "not a chat completion";
  if (typeof body === "string" || body === null || typeof body !== "object") {
    const type = context.contentType
      ? `a ${context.contentType.split(";")[0]} body`
      : "a non-JSON body";
    return {
      reason: `200 with ${type}, ${suffix}: ${JSON.stringify(excerpt(String(body ?? "")))}`,
    };
  }
  const { choices } = body as LooseBody;
  if (!Array.isArray(choices))
    return {
      reason: `200 without 'choices', ${suffix}: ${JSON.stringify(excerpt(JSON.stringify(body)))}`,
    };
  if (choices.length === 0) return { reason: `200 with 'choices: []', ${suffix}` };
  if (context.shapeOnly) return undefined;
  const choice = choices[0] as LooseChoice;
  const message = choice?.message;
  const toolCalls = Array.isArray(message?.tool_calls) ? message.tool_calls.length : 0;
  const content = typeof message?.content === "string" ? message.content : undefined;
  const refusal = typeof message?.refusal === "string" ? message.refusal : undefined;
  if (toolCalls > 0 || refusal) return undefined;
  if (choice?.finish_reason === "length" && (content ?? "").trim() === "") {
    const limit = context.tokenLimit ? ` ${context.tokenLimit}-token` : "";
    return {
      reason: `the model used its whole${limit} limit before writing anything (finish_reason: length), not a usable chat completion`,
      remedy: "raise model.maxTokens (reasoning models spend tokens on hidden reasoning)",
    };
  }
  const reasoning = [message?.reasoning_content, message?.reasoning].some(
    (value) => typeof value === "string" && value.trim() !== "",
  );
  if (content === undefined && !reasoning)
    return {
      reason: `200 whose message has no content and no tool calls (finish_reason: ${String(choice?.finish_reason ?? "none")}), not a usable chat completion`,
    };
  return undefined;
}

/** A short, readable excerpt of a body: tags and runs of whitespace collapsed. */
function excerpt(text: string): string {
  const plain = text
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return plain.length > 300 ? `${plain.slice(0, 300)}…` : plain;
}
