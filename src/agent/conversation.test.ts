import { describe, expect, it } from "vitest";
import { ContextLengthError } from "../llm/context-length-error.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import type { ChatRequest, ChatResponse } from "../llm/types.js";
import { builtinAgent } from "./builtin-agent.js";
import { inMemoryHarness, testTask } from "./testing/in-memory-harness.js";

// A server with a short context (vLLM's words, 4 characters a token): it refuses any request
// whose messages hold more than `limitChars` characters, and answers the rest with `answer`.
function shortContext(
  limitChars: number,
  answer: (request: ChatRequest, index: number) => Partial<ChatResponse>,
) {
  let answered = 0;
  return new ScriptedProvider((request) => {
    const chars = request.messages.reduce(
      (sum, message) => sum + (message.content?.length ?? 0),
      0,
    );
    if (chars > limitChars)
      throw new ContextLengthError(
        `400 from http://x/v1: the prompt is longer than the model's context (server said: This model's maximum context length is ${limitChars / 4} tokens. However, you requested ${Math.ceil(chars / 4)} tokens in the messages, Please reduce the length of the messages.)`,
        { status: 400 },
      );
    return answer(request, answered++);
  });
}

const question = "How many jars does each stall get?";
const longTask = `Background notes: ${"The archive is quiet. ".repeat(100)}\n\nTask: ${question}`;
const yaml = (overflow: string) =>
  `agent_loop:\n  style: react\n  max_steps: 4\ntools:\n  calculator:\n    enabled: true\ncontext:\n  max_chars: 4000\n  overflow: ${overflow}\n`;
const run = (overflow: string, provider: ScriptedProvider) =>
  builtinAgent().run({
    task: testTask(longTask),
    harness: inMemoryHarness(yaml(overflow)),
    provider,
    sampleIndex: 0,
  });
const chars = (request: ChatRequest) =>
  request.messages.reduce((sum, message) => sum + (message.content?.length ?? 0), 0);

describe("Conversation: a prompt longer than the model's context", () => {
  it("fits the prompt to the size the refusal states and sends it again: the task's question survives", async () => {
    const provider = shortContext(1200, () => ({ content: "Answer: 60" }));
    const trace = await run("drop_oldest", provider);
    expect(trace.answer).toBe("60");
    expect(provider.calls).toHaveLength(2);
    const sent = provider.calls[1];
    expect(chars(sent)).toBeLessThanOrEqual(1200);
    const statement = sent.messages.find((message) => message.role === "user")?.content ?? "";
    expect(statement).toContain(`Task: ${question}`);
    expect(statement).toMatch(/^Background notes: /);
    expect(statement).toMatch(/characters cut to fit the model's context/);
    expect(trace.events.map((event) => event.kind)).toEqual([
      "context-overflow",
      "context-overflow",
    ]);
    expect(trace.events[0].detail).toMatch(
      /refused 2 messages .*\(578 tokens for 300\); fitting them to 1139 characters and sending again/,
    );
  });

  it("keeps the learned size for the rest of the rollout: later turns are fitted before they are sent", async () => {
    const provider = shortContext(1200, (_request, index) =>
      index < 2
        ? {
            content: `step ${index}`,
            toolCalls: [
              { id: `c${index}`, name: "calculator", arguments: '{"expression":"15*10"}' },
            ],
          }
        : { content: "Answer: 60" },
    );
    const trace = await run("keep_task", provider);
    expect(trace.answer).toBe("60");
    // One refusal, then three answered turns that all fit at once.
    expect(provider.calls).toHaveLength(4);
    for (const request of provider.calls.slice(1)) {
      expect(chars(request)).toBeLessThanOrEqual(1200);
      expect(request.messages[1].content).toContain(`Task: ${question}`);
    }
  });

  it("still too long after two refits (nothing left to cut): a context-overflow failure of the rollout", async () => {
    const provider = shortContext(40, () => ({ content: "Answer: 60" }));
    const trace = await run("keep_task", provider);
    expect(trace.answer).toBeNull();
    expect(provider.calls).toHaveLength(3);
    expect(trace.events.at(-1)?.kind).toBe("context-overflow");
    expect(trace.events.at(-1)?.detail).toMatch(
      /refused the prompt as longer than the model's context/,
    );
    expect(trace.events.some((event) => event.kind === "llm-error")).toBe(false);
  });
});
