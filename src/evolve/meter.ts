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
  promptTokens?: number;
  completionTokens?: number;
  costUsd?: number;
}

/**
 * Wraps a provider so every uncached response is added to the budget (as agent or refiner
 * spend). Cached replays cost nothing and are not counted. `onCall` is told of each call.
 */
export function meterProvider(options: {
  provider: ChatProvider;
  budget: BudgetTracker;
  role: "agent" | "refiner";
  onCall?: (event: ModelCallEvent) => void;
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
 * evaluation ends at the rollout boundary. Final (gate) evaluations count but never refuse.
 */
export function meterAdapter(options: {
  adapter: AgentAdapter;
  budget: BudgetTracker;
  enforce: boolean;
}): AgentAdapter {
  const { adapter, budget } = options;
  return {
    async run(input) {
      if (options.enforce) budget.check();
      budget.add({ rollouts: 1 });
      return adapter.run(input);
    },
  };
}
