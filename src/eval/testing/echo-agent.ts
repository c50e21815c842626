import type { AgentAdapter, Trace } from "../../agent/types.js";
import { TransportError } from "../../errors/transport-error.js";

/**
 * Test double of an agent adapter: one chat call per rollout (task input as the user message,
 * `seed` = sample index), the reply's content is the answer. Transport errors become an
 * `llm-error` event, as the built-in runtime records them. Records every run.
 */
export class EchoAgent implements AgentAdapter {
  readonly runs: { taskId: string; sampleIndex: number }[] = [];

  async run(input: Parameters<AgentAdapter["run"]>[0]): Promise<Trace> {
    this.runs.push({ taskId: input.task.id, sampleIndex: input.sampleIndex });
    try {
      const response = await input.provider.chat(
        {
          messages: [{ role: "user", content: input.task.input }],
          seed: input.sampleIndex,
          purpose: "agent",
        },
        { signal: input.signal },
      );
      const output = response.content ?? "";
      return {
        steps: [
          {
            assistant: output,
            toolCalls: [],
            promptTokens: response.usage.promptTokens,
            completionTokens: response.usage.completionTokens,
            latencyMs: response.latencyMs,
          },
        ],
        events: output ? [] : [{ kind: "no-answer", step: 0 }],
        output,
        answer: output === "" ? null : output,
        usage: { ...response.usage, llmCalls: 1, costUsd: response.costUsd },
        latencyMs: response.latencyMs,
      };
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      return {
        steps: [],
        events: [{ kind: "llm-error", step: 0, detail: error.message }],
        output: "",
        answer: null,
        usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0, costUsd: 0 },
        latencyMs: 0,
      };
    }
  }
}
