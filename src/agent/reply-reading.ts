import { isRefusal, visibleText } from "../llm/reply-kind.js";
import type { ChatResponse } from "../llm/types.js";
import type { AgentEvent } from "./types.js";

/** What an agent turn's reply comes to: the text the runtime keeps, and what was wrong with it. */
export interface ReadReply {
  content: string | null;
  problem?: { kind: Extract<AgentEvent["kind"], "empty-reply" | "refusal">; detail: string };
}

/**
 * Reads a model turn the way the runtime uses it. With `stripThinking`, a reasoning model's
 * `<think>…</think>` (and an unclosed `<think>` tail) is dropped, so a draft `Answer:` inside it is
 * never extracted and the history does not carry it. A turn without text or tool calls is an
 * `empty-reply` (saying whether it was reasoning only or cut at the limit); a refusal is recorded
 * as one.
 */
export function readReply(response: ChatResponse, options: { stripThinking: boolean }): ReadReply {
  const raw = response.content;
  const thought = !!response.reasoning || /<think>/i.test(raw ?? "");
  // Only a reply that has thinking in it is rewritten: others go back into the history verbatim.
  const content = options.stripThinking && raw && /<think>/i.test(raw) ? visibleText(raw) : raw;
  if (response.toolCalls.length > 0) return { content };
  if (visibleText(content) === "") {
    const what = thought
      ? "reasoning only, no answer (the model did not finish thinking, or the server's reasoning parser took the whole reply)"
      : response.finishReason === "length"
        ? "cut at the token limit before any text"
        : "empty";
    return { content, problem: { kind: "empty-reply", detail: what } };
  }
  if (isRefusal({ content, refused: response.refused }))
    return { content, problem: { kind: "refusal", detail: (content ?? "").slice(0, 300) } };
  return { content };
}
