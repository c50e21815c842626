import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ChatMessage, ToolSpec } from "./types.js";

type Loose = Record<string, unknown>;

/** Our message → the wire's (OpenAI's chat-completions message). */
export function toWireMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: message.content };
    case "tool":
      return { role: "tool", content: message.content, tool_call_id: message.toolCallId };
    case "assistant": {
      const toolCalls = message.toolCalls ?? [];
      if (toolCalls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        content: message.content,
        tool_calls: toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: call.arguments },
        })),
      };
    }
  }
}

/** Text of a wire content: a string, or the text parts of a content array (`{type: "text"}`). */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part && typeof part === "object" ? (part as Loose).text : undefined))
    .filter((text): text is string => typeof text === "string")
    .join("\n");
}

/**
 * A wire message (an agent's, read loosely) → ours. `developer` reads as system; content arrays
 * keep their text parts. Used where a raw body must be rewritten (the text tool protocol).
 */
export function fromWireMessage(raw: unknown): ChatMessage {
  const message = (raw ?? {}) as Loose;
  const role = message.role;
  if (role === "system" || role === "developer")
    return { role: "system", content: textOf(message.content) };
  if (role === "tool")
    return {
      role: "tool",
      content: textOf(message.content),
      toolCallId: String(message.tool_call_id ?? ""),
    };
  if (role === "assistant") {
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Loose[]) : [];
    const toolCalls = calls.map((call, index) => {
      const fn = (call.function ?? {}) as Loose;
      const args = fn.arguments;
      return {
        id: String(call.id ?? `call_${index}`),
        name: String(fn.name ?? ""),
        arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
      };
    });
    const content = message.content == null ? null : textOf(message.content);
    return { role: "assistant", content, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
  }
  return { role: "user", content: textOf(message.content) };
}

/** Our tool → the wire's function tool. */
export function toWireTool(tool: ToolSpec) {
  return {
    type: "function" as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

/** A wire tool (an agent's, read loosely) → ours; undefined for what is not a function tool. */
export function fromWireTool(raw: unknown): ToolSpec | undefined {
  const tool = (raw ?? {}) as Loose;
  const fn = (tool.function ?? {}) as Loose;
  if (typeof fn.name !== "string") return undefined;
  return {
    name: fn.name,
    description: typeof fn.description === "string" ? fn.description : "",
    parameters: (fn.parameters as Record<string, unknown> | undefined) ?? { type: "object" },
  };
}
