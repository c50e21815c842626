import { describe, expect, it } from "vitest";
import { fromTextReply, toTextProtocol } from "./text-tool-protocol.js";
import type { ToolSpec } from "./types.js";

const calculator: ToolSpec = {
  name: "calculator",
  description: "Does arithmetic.",
  parameters: { type: "object", properties: { expression: { type: "string" } } },
};

describe("text tool protocol", () => {
  it("writes the tools under ## Tools, calls as CALL lines and results as RESULT messages", () => {
    const messages = toTextProtocol(
      [
        { role: "system", content: "You are careful." },
        { role: "user", content: "What is 6*7?" },
        {
          role: "assistant",
          content: "Let me compute.",
          toolCalls: [{ id: "c1", name: "calculator", arguments: '{"expression":"6*7"}' }],
        },
        { role: "tool", content: "42", toolCallId: "c1" },
      ],
      [calculator],
    );
    expect(messages[0].content).toBe(
      'You are careful.\n\n## Tools\n- calculator: Does arithmetic. Arguments: {"expression": "..."}\n\nTo call a tool, reply with a single line `CALL <name> <json-arguments>` and nothing else,\nThe result comes back as a message starting `RESULT <name>: `.',
    );
    expect(messages.slice(1)).toEqual([
      { role: "user", content: "What is 6*7?" },
      { role: "assistant", content: 'Let me compute.\nCALL calculator {"expression":"6*7"}' },
      { role: "user", content: "RESULT calculator: 42" },
    ]);
  });

  it("adds a system message when there is none", () => {
    const [first] = toTextProtocol([{ role: "user", content: "hi" }], [calculator]);
    expect(first.role).toBe("system");
    expect(String(first.content).startsWith("## Tools\n- calculator")).toBe(true);
  });

  it("reads CALL lines back as native calls, the rest as the content", () => {
    const reply = fromTextReply('Lookup 1 of 2: Ada.\nCALL lookup {"key": "Ada"}');
    expect(reply.content).toBe("Lookup 1 of 2: Ada.");
    expect(reply.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^call_[0-9a-f]{12}_0$/),
        name: "lookup",
        arguments: '{"key": "Ada"}',
      },
    ]);
    expect(fromTextReply('`CALL calculator {"expression":"1+1"}`').content).toBeNull();
    expect(fromTextReply("Answer: 42")).toEqual({ content: "Answer: 42", toolCalls: [] });
  });

  it("round-trips: a reply read back and written again is what the model sent", () => {
    const sent = 'Lookup 1 of 2: Ada.\nCALL lookup {"key": "Ada"}';
    const read = fromTextReply(sent);
    const [, assistant] = toTextProtocol(
      [
        { role: "system", content: "s" },
        { role: "assistant", content: read.content, toolCalls: read.toolCalls },
      ],
      [calculator],
    );
    expect(assistant.content).toBe(sent);
  });
});
