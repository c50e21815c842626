import { TransportError } from "../errors/transport-error.js";
import type { ModelGateway, RolloutTally } from "../llm/index.js";
import type { ModelAccess } from "./model-access.js";
import type { Trace } from "./types.js";

/**
 * The agent's way to its model through the run's model gateway (src/llm/gateway): per rollout,
 * a fresh token bound to the rollout's model and sample, given in the agent's key variable
 * instead of any real key; the gateway's base URL (`http://127.0.0.1:<port>/v1`, the same
 * inside a sandbox, whose `127.0.0.1:<port>` is relayed to the gateway's unix socket — the
 * sandbox's one way out). `close` revokes the token and cancels the rollout's open calls;
 * `tally` is what the gateway counted for the rollout.
 */
export function gatewayModelAccess(gateway: ModelGateway): ModelAccess {
  return {
    async open({ provider, sandboxed, sampleIndex }) {
      const lease = gateway.openRollout({ model: provider.model, sampleIndex });
      let tally: RolloutTally | undefined;
      const close = () => {
        tally ??= lease.close();
        return tally;
      };
      return {
        baseUrl: gateway.baseUrl,
        relay: sandboxed ? { port: gateway.port, socket: gateway.socketPath } : undefined,
        key: lease.token,
        close: async () => {
          close();
        },
        tally: close,
      };
    },
  };
}

/**
 * The trace with the gateway's count of the rollout: its usage is the tally (exact, what the
 * endpoint answered for this rollout; `usageSource: "gateway"`), unless the agent reported
 * calls and none went through the gateway (it reached a model some other way: its own report
 * is the only account, `usageSource: "agent"`). A call the endpoint could not answer after the
 * retries makes the rollout an infrastructure error (an `llm-error` event: not scored, not
 * cached); a refused key, quota, model or route is thrown, as every rollout would meet it.
 */
export function withGatewayTally(
  trace: Omit<Trace, "latencyMs">,
  tally: RolloutTally,
): Omit<Trace, "latencyMs"> {
  const failure = tally.failure;
  const status = failure?.details.status ?? 0;
  if (failure && !failure.details.retryable && [401, 403, 404, 429].includes(status))
    throw new TransportError("llm", failure.message, failure.details);
  const throughGateway = tally.calls + tally.replayed + tally.refused > 0 || failure !== undefined;
  const counted: Omit<Trace, "latencyMs"> =
    throughGateway || trace.usage.llmCalls === 0
      ? {
          ...trace,
          usage: {
            promptTokens: tally.promptTokens,
            completionTokens: tally.completionTokens,
            llmCalls: tally.calls,
            costUsd: tally.costUsd,
          },
          usageSource: "gateway",
        }
      : { ...trace, usageSource: "agent" };
  if (!failure) return counted;
  const detail = `a model call of this rollout failed at the endpoint after the gateway's retries: ${failure.message}`;
  return {
    ...counted,
    events: [...counted.events, { kind: "llm-error", step: 0, detail: detail.slice(0, 2000) }],
  };
}

type Outcome = { trace: Omit<Trace, "latencyMs">; stderr: string };

/**
 * Runs a rollout, and once more when the endpoint failed one of its calls (an infrastructure
 * error the gateway saw): its answered calls replay from the gateway's cache, so only the
 * failed call is asked again. The usage of both runs is counted (both were paid).
 */
export async function retriedOnInfraError(
  once: () => Promise<Outcome>,
  signal: AbortSignal | undefined,
): Promise<Outcome> {
  const first = await once();
  if (!isGatewayInfraError(first.trace) || signal?.aborted) return first;
  const second = await once();
  const sum = (key: keyof Trace["usage"]) => first.trace.usage[key] + second.trace.usage[key];
  const usage = {
    promptTokens: sum("promptTokens"),
    completionTokens: sum("completionTokens"),
    llmCalls: sum("llmCalls"),
    costUsd: sum("costUsd"),
  };
  return { ...second, trace: { ...second.trace, usage } };
}

function isGatewayInfraError(trace: Omit<Trace, "latencyMs">): boolean {
  return (
    trace.usageSource === "gateway" && trace.events.some((event) => event.kind === "llm-error")
  );
}
