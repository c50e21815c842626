import type { HarnessConfig } from "../config/harness-schema.js";
import type { ChatMessage } from "../llm/types.js";

/** The history a request carries after the context policy, and what it dropped. */
export interface FittedHistory {
  messages: ChatMessage[];
  droppedMessages: number;
  /** The first user message (the task statement) is no longer in `messages`. */
  taskDropped: boolean;
}

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
 */
export function fitHistory(input: {
  history: ChatMessage[];
  config: HarnessConfig["context"];
}): FittedHistory {
  const units = groupUnits(input.history);
  const size = (unit: ChatMessage[]) =>
    unit.reduce((sum, message) => sum + messageChars(message), 0);
  let total = units.reduce((sum, unit) => sum + size(unit), 0);
  const pinned = input.config.overflow === "keep_task" && input.history[0]?.role === "user" ? 1 : 0;
  const kept = [...units];
  let droppedMessages = 0;
  let taskDropped = false;
  while (total > input.config.max_chars && kept.length > pinned + 1) {
    const [removed] = kept.splice(pinned, 1);
    total -= size(removed);
    droppedMessages += removed.length;
    if (removed[0] === input.history[0] && removed[0]?.role === "user") taskDropped = true;
  }
  return { messages: kept.flat(), droppedMessages, taskDropped };
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
