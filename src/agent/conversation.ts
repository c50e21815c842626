import type { HarnessConfig } from "../config/harness-schema.js";
import type { LoadedHarness } from "../harness/types.js";
import { ContextLengthError } from "../llm/context-length-error.js";
import type { ChatMessage, ChatProvider, ChatResponse, ToolSpec } from "../llm/types.js";
import { fitHistory } from "./context-window.js";
import { shapeObservation } from "./observation.js";
import { readReply } from "./reply-reading.js";
import { runTool } from "./tools.js";
import type { TraceRecorder } from "./trace-recorder.js";

/** Refits after a context-length refusal per turn before the turn counts as a context overflow. */
const maxRefits = 2;

/** Characters of a request's messages (what a context limit is learned against). */
function promptChars(messages: ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + (message.content?.length ?? 0), 0);
}

/** The counts a refusal stated, in words. */
function statedWords(error: ContextLengthError): string {
  const { limitTokens, promptTokens } = error.stated;
  if (limitTokens && promptTokens) return `${promptTokens} tokens for ${limitTokens}`;
  return limitTokens ? `limit ${limitTokens} tokens` : "no counts stated";
}

/** What one model turn produced: its text and whether it called tools (whose results are now in the history). */
export interface TurnResult {
  text: string | null;
  calledTools: boolean;
}

/**
 * One rollout's conversation with the model: the system prompt, the history (every message
 * after it) and the tools offered. `turn()` sends one request under the context policy, records
 * it and runs the tools it called.
 */
export class Conversation {
  readonly history: ChatMessage[] = [];

  constructor(
    private readonly setup: {
      harness: LoadedHarness;
      config: HarnessConfig;
      provider: ChatProvider;
      recorder: TraceRecorder;
      system: string;
      /** Tools the model may call this rollout (empty for single-shot). */
      tools: ToolSpec[];
      seed: number;
      signal?: AbortSignal;
    },
  ) {}

  /** Appends a user message (the task statement, a re-prompt, a self-check request). */
  say(content: string): void {
    this.history.push({ role: "user", content });
  }

  /**
   * The most characters (system prompt included) the model's context takes, learned from the
   * endpoint's refusal; unknown until it refuses one.
   */
  private modelChars: number | undefined;

  /**
   * Sends one request; null when the LLM call failed (an `llm-error` event) or the prompt did not
   * fit the model's context (a `context-overflow` event: the harness's doing, a task failure).
   * A refusal as too long for the model's context is not the end: the history is fitted to the
   * size the refusal states (old units dropped under the harness's overflow policy, then the
   * middle of the longest messages cut) and sent again, at most twice; the size is kept for the
   * rest of the rollout.
   */
  async turn(): Promise<TurnResult | null> {
    for (let refits = 0; ; refits += 1) {
      const messages = this.fittedMessages();
      const response = await this.send(messages, refits < maxRefits);
      if (response === "refit") continue;
      return response ? this.answered(response) : null;
    }
  }

  /**
   * One request: the reply; "refit" when the endpoint refused it as too long and `mayRefit`
   * (the model's size is learned from the refusal); null when it failed (the event recorded).
   */
  private async send(
    messages: ChatMessage[],
    mayRefit: boolean,
  ): Promise<ChatResponse | "refit" | null> {
    const { provider, tools, seed, signal, recorder } = this.setup;
    try {
      return await provider.chat(
        { messages, tools: tools.length > 0 ? tools : undefined, seed, purpose: "agent" },
        { signal },
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      if (error instanceof ContextLengthError && mayRefit) {
        this.modelChars = error.charsThatFit(promptChars(messages));
        recorder.event(
          "context-overflow",
          `the endpoint refused ${messages.length} messages as longer than the model's context (${statedWords(error)}); fitting them to ${this.modelChars} characters and sending again`,
          recorder.steps.length,
        );
        return "refit";
      }
      if (error instanceof ContextLengthError)
        recorder.event(
          "context-overflow",
          `the endpoint refused the prompt as longer than the model's context (${messages.length} messages): ${error.message}`,
          recorder.steps.length,
        );
      else
        recorder.event(
          "llm-error",
          error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          recorder.steps.length,
        );
      return null;
    }
  }

  /** The request's messages under the context policy and any learned model limit. */
  private fittedMessages(): ChatMessage[] {
    const { recorder, config, system } = this.setup;
    const fitted = fitHistory({
      history: this.history,
      config: config.context,
      modelChars: this.modelChars === undefined ? undefined : this.modelChars - system.length,
    });
    if (fitted.droppedMessages > 0 || fitted.cutChars > 0) {
      const limit = this.modelChars === undefined ? "" : `, the model's context ${this.modelChars}`;
      const parts = [
        ...(fitted.droppedMessages > 0
          ? [`dropped ${fitted.droppedMessages} of ${this.history.length} messages`]
          : []),
        ...(fitted.cutChars > 0
          ? [`cut ${fitted.cutChars} characters from the middle of the longest messages`]
          : []),
      ];
      const what = fitted.taskDropped ? "; the task statement was dropped" : "";
      recorder.event(
        "context-overflow",
        `${parts.join(" and ")} to fit ${config.context.max_chars} characters${limit}${what}`,
        recorder.steps.length,
      );
    }
    return system ? [{ role: "system", content: system }, ...fitted.messages] : fitted.messages;
  }

  /** Records a reply (its reasoning dropped, as the harness says) and runs the tools it called. */
  private answered(raw: ChatResponse): TurnResult {
    const { recorder, config, tools } = this.setup;
    const reply = readReply(raw, { stripThinking: config.completion.strip_thinking });
    const response = { ...raw, content: reply.content };
    recorder.step(response);
    if (reply.problem) recorder.event(reply.problem.kind, reply.problem.detail);
    if (tools.length === 0) {
      this.history.push({ role: "assistant", content: response.content });
      return { text: response.content, calledTools: false };
    }
    return this.runNativeCalls(response);
  }

  private runNativeCalls(response: ChatResponse): TurnResult {
    const stepIndex = this.setup.recorder.steps.length - 1;
    const calls = response.toolCalls.map((call, index) => ({
      ...call,
      id: call.id || `call_${stepIndex}_${index}`,
    }));
    this.history.push({
      role: "assistant",
      content: response.content,
      ...(calls.length > 0 ? { toolCalls: calls } : {}),
    });
    for (const call of calls) {
      const text = this.runCall(call.name, call.arguments);
      this.history.push({ role: "tool", content: text, toolCallId: call.id });
    }
    return { text: response.content, calledTools: calls.length > 0 };
  }

  /** Runs a tool call, records it and its events, and returns the observation text. */
  private runCall(name: string, rawArguments: string): string {
    const { recorder, config, harness, tools } = this.setup;
    const outcome = runTool({ name, arguments: rawArguments, harness, offered: tools });
    if (outcome.invalidCall)
      recorder.event(
        "invalid-tool-call",
        `${name}(${rawArguments.slice(0, 200)}): ${outcome.text}`,
      );
    else if (outcome.error) recorder.event("tool-error", `${name}: ${outcome.text.slice(0, 300)}`);
    const observation = shapeObservation({
      text: outcome.text,
      error: outcome.error,
      config: config.observation,
    });
    if (observation.truncatedChars > 0) {
      recorder.event(
        "observation-truncated",
        `${name} output cut by ${observation.truncatedChars} characters to ${config.observation.max_chars}`,
      );
    }
    recorder.steps[recorder.steps.length - 1].toolCalls.push({
      name,
      arguments: rawArguments,
      result: observation.text,
      error: outcome.error,
    });
    return observation.text;
  }
}
