import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../llm/types.js";
import { fitHistory } from "./context-window.js";

const task: ChatMessage = { role: "user", content: "T".repeat(100) };
const callUnit = (index: number): ChatMessage[] => [
  {
    role: "assistant",
    content: `a${index}`,
    toolCalls: [{ id: `id${index}`, name: "calculator", arguments: "x".repeat(40) }],
  },
  { role: "tool", content: "r".repeat(50), toolCallId: `id${index}` },
];
const history = [
  task,
  ...callUnit(1),
  ...callUnit(2),
  { role: "user", content: "RESULT lookup: y" } as ChatMessage,
];

describe("fitHistory", () => {
  it("returns the history untouched when it fits", () => {
    expect(fitHistory({ history, config: { max_chars: 10_000, overflow: "drop_oldest" } })).toEqual(
      { messages: history, droppedMessages: 0, taskDropped: false, cutChars: 0 },
    );
  });

  it("drop_oldest drops whole units from the front, task first", () => {
    const fitted = fitHistory({ history, config: { max_chars: 200, overflow: "drop_oldest" } });
    expect(fitted.taskDropped).toBe(true);
    expect(fitted.messages[0].role).toBe("assistant");
    expect(fitted.messages.filter((message) => message.role === "tool")).toHaveLength(
      fitted.messages.filter((message) => message.role === "assistant").length,
    );
  });

  it("keep_task pins the first user message and drops the oldest others", () => {
    const fitted = fitHistory({ history, config: { max_chars: 200, overflow: "keep_task" } });
    expect(fitted.messages[0]).toBe(task);
    expect(fitted.taskDropped).toBe(false);
    expect(fitted.messages.slice(1).map((message) => message.role)).toEqual([
      "assistant",
      "tool",
      "user",
    ]);
    expect(fitted.messages[1].content).toBe("a2");
  });

  it("keeps the newest unit even when it alone is over budget", () => {
    const fitted = fitHistory({
      history: callUnit(9),
      config: { max_chars: 10, overflow: "drop_oldest" },
    });
    expect(fitted.messages).toHaveLength(2);
  });

  it("under the model's context (modelChars) drops units as the policy says, then cuts the middle of the longest message", () => {
    const long: ChatMessage = { role: "user", content: `${"n".repeat(900)} Question: q?` };
    const fitted = fitHistory({
      history: [long, ...callUnit(1), ...callUnit(2)],
      config: { max_chars: 10_000, overflow: "keep_task" },
      modelChars: 500,
    });
    expect(fitted.droppedMessages).toBe(2);
    const size = fitted.messages.reduce((sum, message) => sum + messageText(message), 0);
    expect(size).toBeLessThanOrEqual(500);
    expect(fitted.cutChars).toBeGreaterThan(0);
    expect(fitted.messages[0].content).toMatch(
      /^n+\n\[… \d+ characters cut to fit the model's context …\]\nn+ Question: q\?$/,
    );
    // The newest tool-call unit is whole: arguments are never cut.
    expect(fitted.messages.slice(1)).toEqual(callUnit(2));
  });

  it("never cuts a message below 200 characters: what cannot fit is left for the server to refuse", () => {
    const fitted = fitHistory({
      history: [{ role: "user", content: "x".repeat(300) }],
      config: { max_chars: 10_000, overflow: "keep_task" },
      modelChars: 50,
    });
    expect(fitted.messages[0].content?.length).toBe(200);
  });
});

const messageText = (message: ChatMessage) =>
  (message.content?.length ?? 0) +
  (message.role === "assistant"
    ? (message.toolCalls ?? []).reduce(
        (sum, call) => sum + call.name.length + call.arguments.length,
        0,
      )
    : 0);
