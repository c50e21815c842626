import type { ChatResponse } from "./types.js";

/**
 * What one reply to a structured request was: `usable`, or why not — `empty` (no text),
 * `reasoning-only` (reasoning and no answer: a reasoning model that never closed its thinking),
 * `refusal` (the model declined), `cut` (stopped at the token limit), `unparseable` (no JSON in
 * it: prose, single-quoted pseudo-JSON), `off-schema` (JSON that fails the schema).
 */
export const replyKinds = [
  "usable",
  "empty",
  "reasoning-only",
  "refusal",
  "cut",
  "unparseable",
  "off-schema",
] as const;
/** One of {@link replyKinds}. */
export type ReplyKind = (typeof replyKinds)[number];
/** A reply kind that is not usable. */
export type UnusableKind = Exclude<ReplyKind, "usable">;

/** What each unusable kind means and what fixes it, for stop reasons and reports. */
export const unusableReplies: Record<UnusableKind, { words: string; remedy: string }> = {
  empty: {
    words: "empty",
    remedy:
      "check the model and the server (an empty content with the text elsewhere — reasoning_content — is a reasoning parser that took it all)",
  },
  "reasoning-only": {
    words: "reasoning only, no answer",
    remedy:
      "enable the server's reasoning parser (vLLM: --reasoning-parser) or raise the role's max tokens (refiner.maxTokens, else model.maxTokens) so the model finishes thinking and answers",
  },
  refusal: {
    words: "refused",
    remedy: "use a model that follows the roles' instructions (this one declines them)",
  },
  cut: {
    words: "cut at the token limit",
    remedy: "raise the role's max tokens (refiner.maxTokens, else model.maxTokens)",
  },
  unparseable: {
    words: "not JSON",
    remedy: "use a model that follows instructions (its replies were not JSON)",
  },
  "off-schema": {
    words: "JSON off the schema",
    remedy: "use a model that follows instructions (its JSON did not match the schema)",
  },
};

const thinkBlock = /<think>[\s\S]*?<\/think>/gi;
const openThink = /<think>[\s\S]*$/i;
const apology =
  /^\s*(?:I['’]?m sorry|I am sorry|I apologi[sz]e|Sorry,|I can(?:no|['’])t (?:help|assist|comply|do that|provide)|I(?:['’]m| am) (?:not able|unable) to (?:help|assist|comply))/i;

/** The text of a reply without reasoning: `<think>…</think>` blocks and an unclosed `<think>` tail. */
export function visibleText(content: string | null): string {
  return (content ?? "").replace(thinkBlock, "").replace(openThink, "").trim();
}

/** True when a reply says the model will not do the request (flagged, or in the usual words). */
export function isRefusal(response: Pick<ChatResponse, "content" | "refused">): boolean {
  return response.refused === true || apology.test(visibleText(response.content));
}

/**
 * The kind of a reply that was not usable as structured output, from the reply alone and whether
 * any JSON was found in it.
 */
export function unusableKind(
  response: Pick<ChatResponse, "content" | "finishReason" | "reasoning" | "refused">,
  foundJson: boolean,
): UnusableKind {
  const text = visibleText(response.content);
  const thought = !!response.reasoning || /<think>/i.test(response.content ?? "");
  if (text === "") {
    if (thought) return "reasoning-only";
    return response.finishReason === "length" ? "cut" : "empty";
  }
  if (!foundJson && isRefusal(response)) return "refusal";
  if (response.finishReason === "length") return "cut";
  return foundJson ? "off-schema" : "unparseable";
}
