import type { APIError } from "openai";
import { TransportError } from "../../errors/transport-error.js";
import { withDeadline } from "../attempt-deadline.js";
import { replyVariant, type WireParameter } from "../capabilities.js";
import { CapabilityState } from "../capability-state.js";
import { systemClock } from "../clock.js";
import { NotACompletionError } from "../completion-check.js";
import { ownLimits } from "../endpoint-limits.js";
import { classifyFailure, type FailureContext } from "../failure-classification.js";
import { createEndpointClient } from "../openai-client.js";
import { type CreateProviderOptions, defaultMaxRetryAfterMs } from "../openai-provider.js";
import { redactSecret } from "../redact.js";
import { backoffDelayMs, defaultBackoff } from "../retry-timing.js";
import { seededRandom } from "../seeded-random.js";
import { serverReason } from "../server-reason.js";
import type { Usage } from "../types.js";
import { costOf, type Price } from "../usage-accounting.js";
import { replyProblem, usageOf, type WireApi, type WireBody, wireApis } from "./wire.js";
import { adaptToSettings, readTextTools } from "./wire-capabilities.js";

/** One request of an agent, as the gateway forwards it. */
export interface WireCall {
  api: WireApi;
  /** The agent's body, with the served model already set; never `stream`. */
  body: WireBody;
  signal?: AbortSignal;
}

/** How a forwarded call ended when it did not fail at the endpoint. */
export type ForwardOutcome =
  /** The endpoint's reply (text-protocol calls read back as native tool calls). */
  | { kind: "reply"; body: unknown; usage: Usage; costUsd: number; retries: number }
  /**
   * The endpoint refused the request itself (a 4xx about what the agent sent: a parameter no
   * step can drop, a prompt too long): the agent gets the endpoint's status and body, as it
   * would have without the gateway. Not an infrastructure error: the request was the agent's.
   */
  | { kind: "refused"; status: number; body: string; retries: number };

/** The LLM layer for raw OpenAI-wire calls: one model on one endpoint, with the real key. */
export interface WireForwarder {
  readonly model: string;
  /** What besides the model shapes replies (keys the gateway's cache, like the provider's). */
  readonly variant?: string;
  readonly price: Price;
  /**
   * Sends a call with the provider's discipline — shared limits, capability steps, retries
   * honouring `retry-after(-ms)` with seeded backoff, a deadline per attempt, 200s that are not a
   * reply retried — and returns the reply or the endpoint's refusal of the request. Throws a
   * `TransportError` when the endpoint could not answer after the retries (`retryable: true`) or
   * refuses the key, quota, model or route (401/403/404/`insufficient_quota`), and rethrows the
   * caller's abort.
   */
  forward(call: WireCall): Promise<ForwardOutcome>;
}

/** At most this many capability steps in one call. */
const maxStepsPerCall = 8;

/** A forwarder over the same options as `createProvider` (share `limits` and `capabilities` with it). */
export function createWireForwarder(options: CreateProviderOptions): WireForwarder {
  const { config, baseUrl, apiKey } = options;
  const clock = options.clock ?? systemClock;
  const endpoint = createEndpointClient({
    baseUrl,
    apiKey,
    auth: config.auth,
    apiVersion: config.apiVersion,
    headers: config.headers,
    timeoutMs: config.timeoutMs,
  });
  const keySource =
    options.keySource ?? (apiKey ? `$${config.apiKeyEnv ?? "OPENAI_API_KEY"}` : undefined);
  const deps: Deps = {
    options,
    clock,
    random: options.random ?? seededRandom(0x6a7e),
    limits: options.limits ?? ownLimits(config, clock),
    state: options.capabilities ?? new CapabilityState({ config, endpoint: baseUrl }),
    post: (path, body, signal) => endpoint.client.post(path, { body, signal }).withResponse(),
    errorBody: (error) => {
      const raw = endpoint.errorBody(error.headers);
      return raw === undefined ? undefined : redactSecret(raw, apiKey);
    },
    context: (sent) => ({
      baseUrl,
      model: config.model,
      keySource,
      apiKey,
      timeoutMs: config.timeoutMs,
      nowMs: clock.now(),
      maxRetryAfterMs: options.maxRetryAfterMs ?? defaultMaxRetryAfterMs,
      sent,
      reason: (error: APIError) => {
        const body = endpoint.errorBody(error.headers);
        return body === undefined ? undefined : serverReason(body);
      },
    }),
  };
  return {
    model: config.model,
    variant: replyVariant(config),
    price: config.price,
    forward: (call) => forwardLoop(deps, call),
  };
}

interface Deps {
  options: CreateProviderOptions;
  clock: NonNullable<CreateProviderOptions["clock"]>;
  random: NonNullable<CreateProviderOptions["random"]>;
  limits: NonNullable<CreateProviderOptions["limits"]>;
  state: CapabilityState;
  post(
    path: string,
    body: WireBody,
    signal: AbortSignal,
  ): Promise<{ data: unknown; response: Response }>;
  errorBody(error: APIError): string | undefined;
  context(sent: ReadonlySet<string>): FailureContext;
}

/** The retry loop of one call (the provider's, over raw bodies). */
async function forwardLoop(deps: Deps, call: WireCall): Promise<ForwardOutcome> {
  const { config } = deps.options;
  let retries = 0;
  let steps = 0;
  for (;;) {
    await deps.limits.requests?.acquire(call.signal);
    const settings = deps.state.current();
    const adapted = adaptToSettings(call.api, call.body, settings);
    try {
      return { ...(await attempt(deps, call, adapted)), retries };
    } catch (error) {
      const decision = classifyFailure(error, deps.context(new Set(Object.keys(adapted.body))));
      if (decision.action === "refused" && steps < maxStepsPerCall) {
        const reason = redactSecret(decision.error.message, deps.options.apiKey);
        const outcome = await deps.state.refused(
          decision.parameter as WireParameter,
          settings,
          reason,
        );
        steps += 1;
        if (outcome.kind === "retry") continue;
      }
      if (decision.action === "rethrow") throw error;
      const status = (error as { status?: unknown }).status;
      const requestFault =
        decision.action === "refused" ||
        (decision.action === "fail" && typeof status === "number" && isRequestFault(status));
      if (requestFault) {
        const body =
          deps.errorBody(error as APIError) ?? JSON.stringify({ error: { message: "" } });
        return {
          kind: "refused",
          status: typeof status === "number" ? status : 400,
          body,
          retries,
        };
      }
      if (decision.action === "fail") throw routeError(call.api, decision.error, deps);
      if (retries >= config.maxRetries) {
        throw new TransportError(
          "llm",
          `LLM call to ${deps.options.baseUrl}${wireApis[call.api]} failed after ${retries + 1} attempt(s), last: ${decision.summary}; check the server or raise model.maxRetries / model.timeoutMs`,
          { retryable: true, ...(typeof status === "number" ? { status } : {}) },
        );
      }
      const waitMs =
        decision.waitMs ??
        backoffDelayMs(retries, deps.random, deps.options.backoff ?? defaultBackoff);
      retries += 1;
      await deps.clock.sleep(waitMs, call.signal);
    }
  }
}

/** A 4xx about the request itself, not the key, quota, model, route or a transient state. */
function isRequestFault(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 403, 404, 408, 409, 429].includes(status);
}

/** A 404 on a route other than chat completions names the route the endpoint does not serve. */
function routeError(api: WireApi, error: TransportError, deps: Deps): TransportError {
  if (api === "chat" || error.details.status !== 404) return error;
  return new TransportError(
    "llm",
    `404 from ${deps.options.baseUrl}${wireApis[api]}: the endpoint does not serve this route (${api === "responses" ? "the Responses API" : "embeddings"}) or model '${deps.options.config.model}'; use an endpoint that does, or have the agent call /chat/completions`,
    error.details,
  );
}

/** One attempt under the shared limits and the deadline, read and checked. */
async function attempt(
  deps: Deps,
  call: WireCall,
  adapted: { body: WireBody; textTools: boolean },
): Promise<Omit<Extract<ForwardOutcome, { kind: "reply" }>, "retries">> {
  const { config } = deps.options;
  const limit = Number(
    adapted.body.max_completion_tokens ??
      adapted.body.max_tokens ??
      adapted.body.max_output_tokens ??
      config.maxTokens,
  );
  const estimate =
    Math.ceil(JSON.stringify(adapted.body).length / 4) +
    (Number.isFinite(limit) ? limit : config.maxTokens);
  const settle = await deps.limits.tokens?.acquire(estimate, call.signal);
  return deps.limits.concurrency.run(() =>
    withDeadline(config.timeoutMs, call.signal, async (signal) => {
      const { data, response } = await deps.post(wireApis[call.api], adapted.body, signal);
      const problem = replyProblem(call.api, data, {
        contentType: response.headers.get("content-type"),
      });
      if (problem) throw new NotACompletionError(problem);
      const body = adapted.textTools ? readTextTools(data as WireBody) : data;
      const usage = usageOf(body);
      settle?.(usage.promptTokens + usage.completionTokens);
      return { kind: "reply" as const, body, usage, costUsd: costOf(usage, config.price) };
    }),
  );
}
