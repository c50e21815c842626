import type { AgentAdapter } from "../agent/types.js";
import type { ChatProvider, ChatRequest, ChatResponse } from "../llm/types.js";
import type { BudgetTracker } from "./budget.js";

/** True when a response was replayed from the call cache (`cached` is set by src/llm's withCallCache). */
function isCachedResponse(response: ChatResponse): boolean {
  return (response as ChatResponse & { cached?: boolean }).cached === true;
}

/**
 * One model call as live progress sees it: its start, then its end (with the usage and cost of
 * an uncached call; a replay from the call cache is `cached` and costs nothing) or its failure.
 */
export interface ModelCallEvent {
  phase: "start" | "end" | "error";
  role: "agent" | "refiner";
  /** The request's `purpose` (`agent`, `failure-notes`, `pattern-merge`, `diagnostician`, …). */
  purpose: string;
  cached?: boolean;
  /**
   * How many model calls an `end` stands for (default 1): a command harness calls its model
   * itself and reports a rollout's calls at once, in one `end` after the rollout.
   */
  calls?: number;
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
}

/**
 * Wraps a provider so every uncached response is added to the budget (as agent or refiner
 * spend). Cached replays cost nothing and are not counted. `onCall` is told of each call. When
 * `enforce` (the refiner roles, which only training calls), a call is refused before it starts
 * once a limit is reached, background calls included; agent calls are admitted with their
 * rollout (`meterAdapter`).
 */
export function meterProvider(options: {
  provider: ChatProvider;
  budget: BudgetTracker;
  role: "agent" | "refiner";
  onCall?: (event: ModelCallEvent) => void;
  enforce?: boolean;
}): ChatProvider {
  const { provider, budget, role, onCall } = options;
  return {
    model: provider.model,
    baseUrl: provider.baseUrl,
    variant: provider.variant,
    async chat(
      request: ChatRequest,
      callOptions?: { signal?: AbortSignal },
    ): Promise<ChatResponse> {
      const purpose = request.purpose ?? role;
      if (options.enforce) budget.check();
      onCall?.({ phase: "start", role, purpose });
      let response: ChatResponse;
      try {
        response = await provider.chat(request, callOptions);
      } catch (error) {
        onCall?.({ phase: "error", role, purpose });
        throw error;
      }
      const cached = isCachedResponse(response);
      onCall?.({
        phase: "end",
        role,
        purpose,
        cached,
        ...(cached
          ? {}
          : {
              promptTokens: response.usage.promptTokens,
              completionTokens: response.usage.completionTokens,
              costUsd: response.costUsd,
            }),
      });
      if (!cached) {
        const tokens = response.usage.promptTokens + response.usage.completionTokens;
        budget.add({
          llmCalls: 1,
          promptTokens: response.usage.promptTokens,
          completionTokens: response.usage.completionTokens,
          costUsd: response.costUsd,
          ...(role === "refiner"
            ? { refinerCalls: 1, refinerTokens: tokens, refinerCostUsd: response.costUsd }
            : {}),
        });
      }
      return response;
    },
  };
}

/**
 * Wraps an agent adapter so each uncached rollout (evaluation calls the adapter only on a cache
 * miss) is counted; when `enforce`, it refuses to start one once the budget is spent, so the
 * evaluation ends at the rollout boundary. Final (gate) evaluations count but never refuse. An
 * agent that calls its model itself (`usageFromTrace`: a command harness) has its reported,
 * priced usage counted as agent spend, against the same limits as the metered calls.
 */
export function meterAdapter(options: {
  adapter: AgentAdapter;
  budget: BudgetTracker;
  enforce: boolean;
  /** Told of an agent's own calls (`usageFromTrace`), one `end` per rollout that made some. */
  onCall?: (event: ModelCallEvent) => void;
}): AgentAdapter {
  const { adapter, budget, onCall } = options;
  return {
    ...(adapter.usageFromTrace ? { usageFromTrace: true } : {}),
    async run(input) {
      if (options.enforce) budget.check();
      budget.add({ rollouts: 1 });
      const trace = await adapter.run(input);
      if (adapter.usageFromTrace) {
        const { llmCalls, promptTokens, completionTokens, costUsd } = trace.usage;
        const source =
          trace.usageSource === "gateway"
            ? { gatewayRollouts: 1 }
            : trace.usageSource === "agent"
              ? { selfReportedRollouts: 1 }
              : {};
        budget.add({ llmCalls, promptTokens, completionTokens, costUsd, ...source });
        if (llmCalls > 0) {
          const event = { role: "agent", purpose: "agent", calls: llmCalls } as const;
          onCall?.({ ...event, phase: "end", promptTokens, completionTokens, costUsd });
        }
      }
      return trace;
    },
  };
}
