import { TransportError } from "../errors/transport-error.js";
import type { ModelGateway, RolloutTally } from "../llm/index.js";
import type { Trace } from "./types.js";

/**
 * One rollout's way to its model through the model gateway (src/llm/gateway): the base URL,
 * the loopback port and unix socket a sandbox relays (`relay`), and the rollout's own token
 * (`key`), given in the agent's key variable instead of any real key. `close` revokes the token;
 * `tally` is what the gateway counted for the rollout (read after `close`).
 */
export interface GatewayRoute {
  /** `http://127.0.0.1:<port>/v1`, the same inside a sandbox (its 127.0.0.1:<port> is relayed). */
  baseUrl: string;
  /** The port P the base URL names, and the unix socket S a sandbox relays that port to. */
  relay: { port: number; socket: string };
  /** The rollout's token: the agent's `OPENAI_API_KEY` (or `model.apiKeyEnv`). */
  key: string;
  /** Revokes the token and cancels the rollout's open calls. */
  close(): Promise<void>;
  /** The gateway's count of the rollout's calls (closes the route first if it is open). */
  tally(): RolloutTally;
}

/** Opens a rollout on the gateway: a fresh token bound to the rollout's model and sample. */
export function openGatewayRoute(
  gateway: ModelGateway,
  rollout: { model: string; sampleIndex: number },
): GatewayRoute {
  const lease = gateway.openRollout(rollout);
  let tally: RolloutTally | undefined;
  const close = () => {
    tally ??= lease.close();
    return tally;
  };
  return {
    baseUrl: gateway.baseUrl,
    relay: { port: gateway.port, socket: gateway.socketPath },
    key: lease.token,
    close: async () => {
      close();
    },
    tally: close,
  };
}

/**
 * The rollout's environment with the gateway in it: `OPENAI_BASE_URL` and `ECDYSIS_BASE_URL`
 * name the gateway; the token is given in the agent's key variable (`keyVariable`, default
 * `OPENAI_API_KEY`) and in `OPENAI_API_KEY` (what the openai SDKs read when nothing is
 * configured); every other variable a configured model's key is read from (`keyVariables`) is
 * removed, so no real key reaches the agent.
 */
export function gatewayEnvironment(
  env: NodeJS.ProcessEnv,
  input: { route: GatewayRoute; keyVariable?: string; keyVariables?: readonly string[] },
): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of input.keyVariables ?? []) delete out[name];
  out[input.keyVariable ?? "OPENAI_API_KEY"] = input.route.key;
  out.OPENAI_API_KEY = input.route.key;
  out.OPENAI_BASE_URL = input.route.baseUrl;
  out.ECDYSIS_BASE_URL = input.route.baseUrl;
  return out;
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
