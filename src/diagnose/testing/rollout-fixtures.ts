import type { AgentEvent, TraceStep } from "../../agent/types.js";
import type { Task } from "../../config/task-schema.js";
import type { RolloutRecord } from "../../eval/types.js";
import type { ChatRequest } from "../../llm/types.js";

/** Test fixture: a train task. */
export function makeTask(id: string, overrides: Partial<Task> = {}): Task {
  return {
    id,
    input: `Question ${id}: what is the value?`,
    expected: "42",
    category: "default",
    ...overrides,
  };
}

/** Test fixture: a rollout record with a trace built from the given parts. */
export function makeRecord(options: {
  taskId: string;
  key?: string;
  category?: string;
  pass?: boolean;
  reason?: string;
  output?: string;
  answer?: string | null;
  events?: AgentEvent["kind"][];
  eventDetails?: Partial<Record<AgentEvent["kind"], string>>;
  steps?: TraceStep[];
  sampleIndex?: number;
  model?: string;
}): RolloutRecord {
  const output = options.output ?? "Answer: 41";
  const answer = options.answer === undefined ? "41" : options.answer;
  const steps = options.steps ?? [step()];
  return {
    key: options.key ?? `k-${options.taskId}-${options.sampleIndex ?? 0}`,
    taskId: options.taskId,
    category: options.category ?? "default",
    harnessHash: "h0",
    model: options.model ?? "agent",
    sampleIndex: options.sampleIndex ?? 0,
    output,
    answer,
    verdict: {
      pass: options.pass ?? false,
      score: options.pass ? 1 : 0,
      reason: options.reason ?? (options.pass ? "pass" : "wrong-answer"),
    },
    trace: {
      steps,
      events: (options.events ?? []).map((kind, index) => ({
        kind,
        step: index,
        ...(options.eventDetails?.[kind] ? { detail: options.eventDetails[kind] } : {}),
      })),
      output,
      answer,
      usage: { promptTokens: 1, completionTokens: 1, llmCalls: steps.length, costUsd: 0 },
      latencyMs: 0,
    },
    latencyMs: 0,
    cached: false,
  };
}

/** Test fixture: one trace step, optionally with tool calls. */
export function step(toolCalls: TraceStep["toolCalls"] = []): TraceStep {
  return { assistant: "thinking", toolCalls, promptTokens: 1, completionTokens: 1, latencyMs: 0 };
}

/** Parses the evidence block (the last fenced ```json block of the first user message). */
export function evidenceOf(request: ChatRequest): Record<string, unknown> {
  const user = request.messages.find((message) => message.role === "user");
  const text = typeof user?.content === "string" ? user.content : "";
  const blocks = [...text.matchAll(/```json\n([\s\S]*?)\n```/g)];
  const last = blocks.at(-1);
  if (!last) throw new Error("no evidence block in the request");
  return JSON.parse(last[1]) as Record<string, unknown>;
}

/** A JSON reply for ScriptedProvider. */
export function json(value: unknown): { content: string } {
  return { content: JSON.stringify(value) };
}
