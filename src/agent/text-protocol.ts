import type { ToolSpec } from "../llm/types.js";

/** A tool call the model wrote as a `CALL <name> <json>` line. */
export interface TextToolCall {
  name: string;
  arguments: string;
}

/**
 * The `## Tools` section body for servers without native tool calls (docs/sim-protocol.md §1.3):
 * each tool with its description and argument shape, and how to call one.
 */
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

/** Every `CALL <name> <json>` line of a reply, in order. */
export function parseTextCalls(text: string | null): TextToolCall[] {
  if (!text) return [];
  const calls: TextToolCall[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*`?CALL\s+([A-Za-z_][\w-]*)\s*(.*?)`?\s*$/.exec(line);
    if (match) calls.push({ name: match[1], arguments: match[2] });
  }
  return calls;
}

/** The user message that carries a tool result back in the text protocol. */
export function textResultMessage(name: string, result: string): string {
  return `RESULT ${name}: ${result}`;
}
