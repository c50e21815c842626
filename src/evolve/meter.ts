import type { AgentAdapter } from "../agent/types.js";
import type { ChatProvider, ChatRequest, ChatResponse } from "../llm/types.js";
import type { BudgetTracker } from "./budget.js";

/** True when a response was replayed from the call cache (`cached` is set by src/llm's withCallCache). */
function isCachedResponse(response: ChatResponse): boolean {
  return (response as ChatResponse & { cached?: boolean }).cached === true;
}

/**
 * Wraps a provider so every uncached response is added to the budget (as agent or refiner
 * spend). Cached replays cost nothing and are not counted.
 */
export function meterProvider(options: {
  provider: ChatProvider;
  budget: BudgetTracker;
  role: "agent" | "refiner";
}): ChatProvider {
  const { provider, budget, role } = options;
  return {
    model: provider.model,
    baseUrl: provider.baseUrl,
    variant: provider.variant,
    async chat(
      request: ChatRequest,
      callOptions?: { signal?: AbortSignal },
    ): Promise<ChatResponse> {
      const response = await provider.chat(request, callOptions);
      if (!isCachedResponse(response)) {
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
