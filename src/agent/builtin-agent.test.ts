import { describe, expect, it } from "vitest";
import { ContextLengthError } from "../llm/context-length-error.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import type { ChatRequest, ChatResponse, ToolCall } from "../llm/types.js";
import { builtinAgent, selfCheckMessage } from "./builtin-agent.js";
import { inMemoryHarness, testTask } from "./testing/in-memory-harness.js";

const toolYaml = `agent_loop:
  style: react
  max_steps: 4
tools:
  calculator:
    enabled: true
    description: Does arithmetic.
  lookup:
    enabled: true
completion:
  format_instruction: "End with a final line 'Answer: <value>'."
`;
const knowledge = "## Ada Lovelace\n- born: 1815\n";

const call = (name: string, args: string, id = `c-${name}`): ToolCall => ({
  id,
  name,
  arguments: args,
});
const reply = (content: string | null, toolCalls: ToolCall[] = []): Partial<ChatResponse> => ({
  content,
  toolCalls,
  usage: { promptTokens: 7, completionTokens: 3 },
  costUsd: 0.001,
  latencyMs: 5,
});
const kinds = (events: { kind: string }[]) => events.map((event) => event.kind);
const steps = (...replies: Partial<ChatResponse>[]) =>
  new ScriptedProvider((_request, index) => replies[index]);
const run = (yaml: string, provider: ScriptedProvider, input = "What is 6*7?") =>
  builtinAgent().run({
    task: testTask(input),
    harness: inMemoryHarness(yaml, { "knowledge.md": knowledge }),
    provider,
    sampleIndex: 3,
  });

describe("builtinAgent: the tool loop", () => {
  it("renders the request, runs calculator and lookup, and extracts the answer", async () => {
    const provider = steps(
      reply("Let me compute.", [
        call("calculator", '{"expression":"6*7"}'),
        call("lookup", '{"key":"ada lovelace"}'),
      ]),
      reply("Done.\nAnswer: 42"),
    );
    const trace = await run(toolYaml, provider);
    const first = provider.calls[0];
    expect(first.messages[0]).toEqual({
      role: "system",
      content:
        "You are a careful assistant.\n\n## Rules\n- Be brief.\n\n## Answer format\nEnd with a final line 'Answer: <value>'.",
    });
    expect(first.messages[1]).toEqual({ role: "user", content: "What is 6*7?" });
    expect(first.seed).toBe(3);
    expect(first.tools?.map((tool) => [tool.name, tool.description])).toEqual([
      ["calculator", "Does arithmetic."],
      ["lookup", "Look up an entry of the knowledge base by its exact name and return its facts."],
    ]);
    const second = provider.calls[1].messages;
    expect(second.slice(-2)).toEqual([
      { role: "tool", content: "42", toolCallId: "c-calculator" },
      { role: "tool", content: "## Ada Lovelace\n- born: 1815", toolCallId: "c-lookup" },
    ]);
    expect(trace.answer).toBe("42");
    expect(trace.output).toBe("Done.\nAnswer: 42");
    expect(trace.steps[0].toolCalls).toEqual([
      { name: "calculator", arguments: '{"expression":"6*7"}', result: "42", error: false },
      {
        name: "lookup",
        arguments: '{"key":"ada lovelace"}',
        result: "## Ada Lovelace\n- born: 1815",
        error: false,
      },
    ]);
    expect(trace.usage).toEqual({
      promptTokens: 14,
      completionTokens: 6,
      llmCalls: 2,
      costUsd: 0.002,
    });
    expect(trace.events).toEqual([]);
  });

  it("shows tool errors raw or with the hint, and flags invalid JSON arguments", async () => {
    const errorTurn = () =>
      steps(
        reply(null, [
          call("calculator", '{"expression":"six*7"}'),
          call("calculator", "{bad json"),
        ]),
        reply("Answer: 42"),
      );
    const shown = errorTurn();
    const shownTrace = await run(toolYaml, shown);
    expect(shown.calls[1].messages.at(-2)?.content).toBe(
      "error: invalid character 's' in expression",
    );
    expect(kinds(shownTrace.events)).toEqual(["tool-error", "invalid-tool-call"]);
    expect(shownTrace.steps[0].toolCalls.map((toolCall) => toolCall.error)).toEqual([true, true]);
    const hinted = errorTurn();
    await run(
      `${toolYaml}observation:\n  on_error: hint\n  error_hint: "Hint: use digits only."\n`,
      hinted,
    );
    expect(hinted.calls[1].messages.at(-2)?.content).toBe(
      "error: invalid character 's' in expression\n\nHint: use digits only.",
    );
  });

  it("truncates long observations to observation.max_chars", async () => {
    const long = `## Big\n${"- fact: x\n".repeat(40)}`;
    const provider = steps(reply(null, [call("lookup", '{"key":"Big"}')]), reply("Answer: x"));
    const trace = await builtinAgent().run({
      task: testTask("q"),
      harness: inMemoryHarness(`${toolYaml}observation:\n  max_chars: 60\n`, {
        "knowledge.md": long,
      }),
      provider,
      sampleIndex: 0,
    });
    const shown = provider.calls[1].messages.at(-1)?.content ?? "";
    expect(shown.startsWith(long.slice(0, 60))).toBe(true);
    expect(shown).toMatch(/\[output truncated: \d+ more characters\]$/);
    expect(kinds(trace.events)).toEqual(["observation-truncated"]);
  });

  it("cuts the run at max_steps with a step-limit event, keeping an answer already given", async () => {
    const looping = new ScriptedProvider(() =>
      reply("Answer: 3 (checking)", [call("calculator", '{"expression":"1+2"}')]),
    );
    const trace = await run(toolYaml.replace("max_steps: 4", "max_steps: 2"), looping);
    expect(looping.calls).toHaveLength(2);
    expect(kinds(trace.events)).toEqual(["step-limit"]);
    expect(trace.events[0].step).toBe(2);
    expect(trace.answer).toBe("3 (checking)");
  });

  it("single_shot sends one request without tools", async () => {
    const provider = steps(reply("Answer: 42"));
    const trace = await run(toolYaml.replace("style: react", "style: single_shot"), provider);
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0].tools).toBeUndefined();
    expect(trace.answer).toBe("42");
  });

  it("rethrows when the run is aborted instead of recording an llm-error", async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider(() => {
      controller.abort(new Error("cancelled"));
      throw new Error("request aborted");
    });
    const running = builtinAgent().run({
      task: testTask("q"),
      harness: inMemoryHarness(toolYaml, { "knowledge.md": knowledge }),
      provider,
      sampleIndex: 0,
      signal: controller.signal,
    });
    await expect(running).rejects.toThrow("request aborted");
  });

  it("ends the trace with llm-error when the provider fails", async () => {
    const provider = new ScriptedProvider((_request, index) =>
      index === 0 ? reply(null, [call("calculator", '{"expression":"1"}')]) : undefined,
    );
    const trace = await run(toolYaml, provider);
    expect(kinds(trace.events)).toEqual(["llm-error"]);
    expect(trace.answer).toBeNull();
    expect(trace.usage.llmCalls).toBe(1);
  });
});

describe("builtinAgent: completion policy", () => {
  it("records no-answer with on_missing: fail", async () => {
    const provider = steps(reply("It is forty-two."));
    const trace = await run(toolYaml, provider);
    expect(trace.answer).toBeNull();
    expect(kinds(trace.events)).toEqual(["no-answer"]);
    expect(provider.calls).toHaveLength(1);
  });

  it("re-prompts once with on_missing: reprompt and extracts the last match", async () => {
    const provider = steps(reply("It is forty-two."), reply("Answer: 41\nAnswer: 42"));
    const trace = await run(`${toolYaml}  on_missing: reprompt\n`, provider);
    expect(provider.calls[1].messages.at(-1)).toEqual({
      role: "user",
      content:
        "Your reply did not contain a final answer. Reply with one line of the form 'Answer: <value>'.",
    });
    expect(kinds(trace.events)).toEqual(["reprompt"]);
    expect(trace.answer).toBe("42");
  });

  it("self_check asks once more and takes the restated answer", async () => {
    const provider = steps(reply("Answer: 41"), reply("I re-checked. Answer: 42"));
    const trace = await run(
      toolYaml.replace("max_steps: 4", "max_steps: 4\n  self_check: true"),
      provider,
    );
    expect(provider.calls[1].messages.at(-1)).toEqual({ role: "user", content: selfCheckMessage });
    expect(kinds(trace.events)).toEqual(["self-check"]);
    expect(trace.answer).toBe("42");
  });
});

describe("builtinAgent: context policy", () => {
  const contextYaml = (overflow: string) =>
    `${toolYaml}context:\n  max_chars: 200\n  overflow: ${overflow}\n`;
  const task = `Question: ${"q".repeat(120)}`;
  const loop = () =>
    new ScriptedProvider((_request: ChatRequest, index) =>
      index < 3
        ? reply(`step ${index}`, [
            call("calculator", `{"expression":"${index}+${"0+".repeat(20)}0"}`, `id${index}`),
          ])
        : reply("Answer: 1"),
    );

  it("drop_oldest loses the task statement from the request", async () => {
    const provider = loop();
    const trace = await run(contextYaml("drop_oldest"), provider, task);
    const last = provider.calls.at(-1)!.messages;
    expect(last.some((message) => message.content === task)).toBe(false);
    expect(kinds(trace.events)).toContain("context-overflow");
    expect(trace.events.find((event) => event.kind === "context-overflow")?.detail).toMatch(
      /task statement was dropped/,
    );
    for (const [index, message] of last.entries()) {
      if (message.role === "tool")
        expect(last[index - 1].role === "assistant" || last[index - 1].role === "tool").toBe(true);
    }
    expect(last[1].role).not.toBe("tool");
  });

  it("keep_task pins the task statement as the first user message", async () => {
    const provider = loop();
    const trace = await run(contextYaml("keep_task"), provider, task);
    const last = provider.calls.at(-1)!.messages;
    expect(last[1]).toEqual({ role: "user", content: task });
    expect(last[2].role).toBe("assistant");
    expect(kinds(trace.events)).toContain("context-overflow");
    expect(last.length).toBeLessThan(1 + 1 + 3 * 2);
  });
});

describe("builtinAgent: replies of reasoning models and refusing servers", () => {
  const single = "agent_loop:\n  style: single_shot\n";

  it("drops <think>…</think> before the answer is read: a draft inside it is not the answer", async () => {
    const thinking = "<think>Maybe Answer: 41? No.</think>Answer: 42";
    const trace = await run(single, steps(reply(thinking)));
    expect(trace.answer).toBe("42");
    expect(trace.steps[0].assistant).toBe("Answer: 42");
    const draft = "<think>\nAnswer: 41\n</think>\nIt is forty-two.";
    const draftOnly = await run(single, steps(reply(draft)));
    expect(draftOnly.answer).toBeNull();
    const kept = await run(`${single}completion:\n  strip_thinking: false\n`, steps(reply(draft)));
    expect(kept.answer).toBe("41");
  });

  it("keeps thinking out of the history the next turn sends", async () => {
    const provider = steps(
      reply("<think>I should look her up.</think>", [call("lookup", '{"key":"ada lovelace"}')]),
      reply("Answer: 1815"),
    );
    await run(toolYaml, provider);
    const assistant = provider.calls[1].messages.find((message) => message.role === "assistant");
    expect(assistant?.content).toBe("");
  });

  it("a reply with reasoning and no text is an empty reply, not an answer", async () => {
    const trace = await run(single, steps({ ...reply(""), reasoning: "Let me think about 6*7…" }));
    expect(trace.answer).toBeNull();
    expect(trace.events).toContainEqual(
      expect.objectContaining({
        kind: "empty-reply",
        detail: expect.stringContaining("reasoning only"),
      }),
    );
  });

  it("a refusal is recorded as one", async () => {
    const trace = await run(single, steps(reply("I'm sorry, but I can't help with that.")));
    expect(kinds(trace.events)).toContain("refusal");
  });

  it("a prompt too long for the model's context ends the rollout as a context overflow, not an endpoint fault", async () => {
    const provider = new ScriptedProvider(() => {
      throw new ContextLengthError(
        "400 from http://x/v1: the prompt is longer than the model's context (server said: This model's maximum context length is 4096 tokens.)",
        { status: 400 },
      );
    });
    const trace = await run(single, provider);
    expect(kinds(trace.events)).toContain("context-overflow");
    expect(kinds(trace.events)).not.toContain("llm-error");
    expect(trace.answer).toBeNull();
  });
});
