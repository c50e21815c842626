import { createHash } from "node:crypto";
import type { ChatMessage, ToolCall, ToolSpec } from "./types.js";

/**
 * The text protocol for servers without native tool calls (docs/sim-protocol.md §1.3): the
 * tools are listed under `## Tools` at the end of the system prompt, the model calls one with a
 * line `CALL <name> <json-arguments>`, and each result comes back as a user message
 * `RESULT <name>: …`. The provider translates in both directions, so callers always see native
 * tool calls whichever way the server was spoken to.
 */

const callLine = /^\s*`?CALL\s+([A-Za-z_][\w-]*)\s*(.*?)`?\s*$/;

/** The `## Tools` section body: each tool with its description and argument shape, and how to call one. */
export function renderToolsSection(tools: ToolSpec[]): string {
  const lines = tools.map((tool) => {
    const properties = Object.keys(
      (tool.parameters.properties as Record<string, unknown> | undefined) ?? {},
    );
    const example = `{${properties.map((name) => `"${name}": "..."`).join(", ")}}`;
    return `- ${tool.name}: ${tool.description} Arguments: ${example}`;
  });
  return [
    ...lines,
    "",
    "To call a tool, reply with a single line `CALL <name> <json-arguments>` and nothing else,",
    "The result comes back as a message starting `RESULT <name>: `.",
  ].join("\n");
}

/** The user message that carries a tool result back in the text protocol. */
export function textResultMessage(name: string, result: string): string {
  return `RESULT ${name}: ${result}`;
}

/**
 * A conversation with native tool calls rewritten for the text protocol: the tools section
 * appended to the first system message (one is added when there is none), assistant tool calls
 * written as `CALL` lines after their text, and tool results as `RESULT` user messages.
 */
export function toTextProtocol(messages: ChatMessage[], tools: ToolSpec[]): ChatMessage[] {
  const section = `## Tools\n${renderToolsSection(tools).trim()}`;
  const out: ChatMessage[] = [];
  const names = new Map<string, string>();
  let placed = false;
  for (const message of messages) {
    if (message.role === "system" && !placed) {
      placed = true;
      const text = message.content.trim();
      out.push({ role: "system", content: text ? `${text}\n\n${section}` : section });
    } else if (message.role === "assistant" && (message.toolCalls?.length ?? 0) > 0) {
      const calls = message.toolCalls ?? [];
      for (const call of calls) names.set(call.id, call.name);
      const lines = calls.map((call) => `CALL ${call.name} ${call.arguments}`);
      const text = message.content?.trim() ? [message.content, ...lines] : lines;
      out.push({ role: "assistant", content: text.join("\n") });
    } else if (message.role === "tool") {
      const name = names.get(message.toolCallId) ?? "tool";
      out.push({ role: "user", content: textResultMessage(name, message.content) });
    } else out.push(message);
  }
  if (!placed) out.unshift({ role: "system", content: section });
  return out;
}

/**
 * A text-protocol reply read as native: every `CALL` line becomes a tool call (with an id
 * derived from the reply, so replays are identical), the rest stays the content.
 */
export function fromTextReply(content: string | null): {
  content: string | null;
  toolCalls: ToolCall[];
} {
  if (!content) return { content, toolCalls: [] };
  const toolCalls: ToolCall[] = [];
  const kept: string[] = [];
  const stem = createHash("sha256").update(content).digest("hex").slice(0, 12);
  for (const line of content.split(/\r?\n/)) {
    const match = callLine.exec(line);
    if (match)
      toolCalls.push({
        id: `call_${stem}_${toolCalls.length}`,
        name: match[1],
        arguments: match[2],
      });
    else kept.push(line);
  }
  if (toolCalls.length === 0) return { content, toolCalls };
  const text = kept.join("\n").trim();
  return { content: text === "" ? null : text, toolCalls };
}
