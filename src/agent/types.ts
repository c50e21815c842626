import { z } from "zod";
import type { Task } from "../config/task-schema.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";

/** Deterministic signals the runtime records while a rollout runs. */
export const agentEventKinds = [
  "step-limit",
  "tool-error",
  "observation-truncated",
  "context-overflow",
  "no-answer",
  "reprompt",
  "self-check",
  "invalid-tool-call",
  "llm-error",
  /** A model turn with no usable text and no tool call: empty, reasoning only, or cut at the limit. */
  "empty-reply",
  /** The model declined the task (`message.refusal`, or "I'm sorry, but I can't…"). */
  "refusal",
  "timeout",
  "process-error",
  /** A command harness's own event kind, kept as a generic event (its detail starts with the kind). */
  "agent-event",
] as const;
export const agentEventSchema = z.object({
  kind: z.enum(agentEventKinds),
  step: z.number().int(),
  detail: z.string().max(2000).optional(),
});
export type AgentEvent = z.infer<typeof agentEventSchema>;

export const traceStepSchema = z.object({
  /** Messages sent at this step are not repeated; only what the model said and what tools returned. */
  assistant: z.string().nullable(),
  toolCalls: z.array(
    z.object({ name: z.string(), arguments: z.string(), result: z.string(), error: z.boolean() }),
  ),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  latencyMs: z.number(),
});
export type TraceStep = z.infer<typeof traceStepSchema>;

export const traceSchema = z.object({
  steps: z.array(traceStepSchema),
  events: z.array(agentEventSchema),
  /** Final text output (the last assistant message or the command harness's `output`). */
  output: z.string(),
  /** Answer extracted by the completion rule; null when none was found. */
  answer: z.string().nullable(),
  usage: z.object({
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    llmCalls: z.number().int(),
    costUsd: z.number(),
  }),
  latencyMs: z.number(),
  /** Command harness: captured stderr (bounded). */
  stderr: z.string().optional(),
  /**
   * Command harness: where `usage` came from — the model gateway's count of the rollout's calls
   * (exact) or the agent's own report (when it reached its model without the gateway).
   */
  usageSource: z.enum(["gateway", "agent"]).optional(),
});
export type Trace = z.infer<typeof traceSchema>;

/** Runs one task under one harness; the built-in runtime and the command adapter implement it. */
export interface AgentAdapter {
  /**
   * The agent calls its model itself, not through the provider it is given (a command harness
   * reaches the endpoint over HTTP): the trace's usage is the only account of that spend, and
   * the run adds it to its budget. Absent: every call went through the provider (and its meter).
   */
  readonly usageFromTrace?: boolean;
  run(input: {
    task: Task;
    harness: LoadedHarness;
    provider: ChatProvider;
    sampleIndex: number;
    signal?: AbortSignal;
  }): Promise<Trace>;
}
