import type { ChatResponse } from "../llm/types.js";
import type { AgentEvent, Trace, TraceStep } from "./types.js";

/** Injected time source for latency measurements. */
export interface AgentClock {
  now(): number;
}

/** Default clock: monotonic milliseconds. */
export const monotonicClock: AgentClock = { now: () => performance.now() };

/** Collects the steps, events and usage of one rollout and assembles the Trace. */
export class TraceRecorder {
  readonly steps: TraceStep[] = [];
  readonly events: AgentEvent[] = [];
  private readonly usage = { promptTokens: 0, completionTokens: 0, llmCalls: 0, costUsd: 0 };
  private readonly startedAt: number;

  constructor(private readonly clock: AgentClock) {
    this.startedAt = clock.now();
  }

  /** Records a model turn and its usage; returns the step so tool calls can be attached. */
  step(response: ChatResponse): TraceStep {
    const step: TraceStep = {
      assistant: response.content,
      toolCalls: [],
      promptTokens: response.usage.promptTokens,
      completionTokens: response.usage.completionTokens,
      latencyMs: response.latencyMs,
    };
    this.steps.push(step);
    this.usage.promptTokens += response.usage.promptTokens;
    this.usage.completionTokens += response.usage.completionTokens;
    this.usage.llmCalls += 1;
    this.usage.costUsd += response.costUsd;
    return step;
  }

  /** Records an event at the current step (the index of the latest model turn, or 0). */
  event(
    kind: AgentEvent["kind"],
    detail?: string,
    step = Math.max(0, this.steps.length - 1),
  ): void {
    this.events.push({
      kind,
      step,
      ...(detail === undefined ? {} : { detail: detail.slice(0, 2000) }),
    });
  }

  /** The last non-empty text the model wrote. */
  lastAssistantText(): string | null {
    for (let index = this.steps.length - 1; index >= 0; index -= 1) {
      const text = this.steps[index].assistant;
      if (text && text.trim() !== "") return text;
    }
    return null;
  }

  /** The finished trace. */
  finish(answer: string | null): Trace {
    return {
      steps: this.steps,
      events: this.events,
      output: this.lastAssistantText() ?? "",
      answer,
      usage: { ...this.usage },
      latencyMs: Math.max(0, this.clock.now() - this.startedAt),
    };
  }
}
