import type { HarnessConfig } from "../config/harness-schema.js";
import { cutMiddle } from "../llm/cut-middle.js";
import type { ChatMessage } from "../llm/types.js";

/** The history a request carries after the context policy, and what it dropped. */
export interface FittedHistory {
  messages: ChatMessage[];
  droppedMessages: number;
  /** The first user message (the task statement) is no longer in `messages`. */
  taskDropped: boolean;
  /** Characters cut from the middle of messages too long for the model's context (`modelChars`). */
  cutChars: number;
}

/** The shortest a message is cut to for the model's context: enough to keep what it is about. */
const minCutChars = 200;

/** Characters a message counts against `context.max_chars` (content plus tool-call arguments). */
function messageChars(message: ChatMessage): number {
  const content = message.content?.length ?? 0;
  if (message.role !== "assistant") return content;
  return (
    content +
    (message.toolCalls ?? []).reduce(
      (sum, call) => sum + call.name.length + call.arguments.length,
      0,
    )
  );
}

/**
 * Keeps the history (every message after the system prompt) within `context.max_chars`.
 * Messages are dropped in units — an assistant tool-call message together with its tool
 * results — from the front: `drop_oldest` may drop the task statement itself, `keep_task` pins
 * the first user message. The newest unit always survives, even when it alone is over budget.
 * `modelChars`, the room the model's context leaves (learned from a refusal), is a hard limit
 * on top: units are dropped under it the same way, then the longest messages lose their middle.
 */
export function fitHistory(input: {
  history: ChatMessage[];
  config: HarnessConfig["context"];
  modelChars?: number;
}): FittedHistory {
  const units = groupUnits(input.history);
  const size = (unit: ChatMessage[]) =>
    unit.reduce((sum, message) => sum + messageChars(message), 0);
  let total = units.reduce((sum, unit) => sum + size(unit), 0);
  const budget = Math.min(input.config.max_chars, input.modelChars ?? Number.POSITIVE_INFINITY);
  const pinned = input.config.overflow === "keep_task" && input.history[0]?.role === "user" ? 1 : 0;
  const kept = [...units];
  let droppedMessages = 0;
  let taskDropped = false;
  while (total > budget && kept.length > pinned + 1) {
    const [removed] = kept.splice(pinned, 1);
    total -= size(removed);
    droppedMessages += removed.length;
    if (removed[0] === input.history[0] && removed[0]?.role === "user") taskDropped = true;
  }
  const fitted = cutToFit(kept.flat(), input.modelChars);
  return { messages: fitted.messages, droppedMessages, taskDropped, cutChars: fitted.cutChars };
}

/** Cuts the middle of the longest texts (never tool-call arguments) until `maxChars` holds. */
function cutToFit(
  messages: ChatMessage[],
  maxChars: number | undefined,
): { messages: ChatMessage[]; cutChars: number } {
  const out = [...messages];
  let total = out.reduce((sum, message) => sum + messageChars(message), 0);
  let cutChars = 0;
  const length = (index: number) => out[index].content?.length ?? 0;
  while (maxChars !== undefined && total > maxChars) {
    const longest = out.reduce(
      (best, _, index) => (length(index) > length(best) ? index : best),
      0,
    );
    const message = out[longest];
    if (!message?.content || message.content.length <= minCutChars) break;
    const target = Math.max(minCutChars, message.content.length - (total - maxChars));
    const content = cutMiddle(message.content, target);
    const removed = message.content.length - content.length;
    if (removed <= 0) break;
    out[longest] = { ...message, content };
    total -= removed;
    cutChars += removed;
  }
  return { messages: out, cutChars };
}
function groupUnits(history: ChatMessage[]): ChatMessage[][] {
  const units: ChatMessage[][] = [];
  for (const message of history) {
    const previous = units[units.length - 1];
    // Text-protocol results (`RESULT name: …` user messages) belong to the call before them too.
    const isResult =
      message.role === "tool" || (message.role === "user" && message.content.startsWith("RESULT "));
    if (isResult && previous && previous[0].role === "assistant") previous.push(message);
    else units.push([message]);
  }
  return units;
}
