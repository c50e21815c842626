import type { APIError } from "openai";
import type { ModelConfig } from "../config/config-schema.js";
import { TransportError } from "../errors/transport-error.js";
import { estimateTokens, withDeadline } from "./attempt-deadline.js";
import {
  type ChatBody,
  type Downgrade,
  fixFor,
  observedRefusals,
  replyVariant,
  type WireReply,
  type WireSettings,
} from "./capabilities.js";
import { CapabilityState } from "./capability-state.js";
import { type Clock, systemClock } from "./clock.js";
import { completionProblem, NotACompletionError } from "./completion-check.js";
import { type EndpointLimits, ownLimits } from "./endpoint-limits.js";
import {
  classifyFailure,
  type FailureContext,
  type FailureDecision,
} from "./failure-classification.js";
import { createEndpointClient, type EndpointClient } from "./openai-client.js";
import { fromOpenAIResponse, toOpenAIRequest, wireReplyOf } from "./openai-mapping.js";
import { type CheckOutcome, checkEndpoint } from "./preflight.js";
import { redactSecret } from "./redact.js";
import { type BackoffOptions, backoffDelayMs, defaultBackoff } from "./retry-timing.js";
import { type RandomSource, seededRandom } from "./seeded-random.js";
import { serverReason } from "./server-reason.js";
import type { ChatRequest, ChatResponse } from "./types.js";
import { type AccountedProvider, costOf, UsageAccount } from "./usage-accounting.js";

/** Options of {@link createProvider}. */
export interface CreateProviderOptions {
  config: ModelConfig;
  /** OpenAI-compatible base URL, usually ending in `/v1` (Azure: the deployment URL). */
  baseUrl: string;
  /** The key itself (read by the caller); never echoed anywhere. Undefined: a keyless server. */
  apiKey?: string;
  /** Where the key came from, for messages (`$OPENAI_API_KEY`). Default `$<apiKeyEnv>`. */
  keySource?: string;
  /** Time source for retry waits, rate limiting and latency; the system clock by default. */
  clock?: Clock;
  /** Jitter source for backoff; a fixed-seed generator by default, so runs are reproducible. */
  random?: RandomSource;
  /** Longest `Retry-After` honoured; a longer one fails the call. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Backoff for retries the server gave no `Retry-After` for. */
  backoff?: BackoffOptions;
  /** Limits shared with the other roles on this endpoint and key; by default the provider's own. */
  limits?: EndpointLimits;
  /** Wire settings shared with the other roles on this model; by default the provider's own. */
  capabilities?: CapabilityState;
}

/** A provider over the `openai` SDK: chat, the endpoint check, and what it learned about the server. */
export interface OpenAIProvider extends AccountedProvider {
  /** The preflight: one cheap check that the URL, key, quota and model are right (`preflight.ts`). */
  check(): Promise<CheckOutcome>;
  /** Capability steps taken so far (or remembered from the cache). */
  downgrades(): Downgrade[];
}

/** Default cap on a server-requested wait. */
export const defaultMaxRetryAfterMs = 60_000;

/** At most this many capability steps in one call (every ladder together is shorter). */
const maxStepsPerCall = 8;

/**
 * A chat provider over the `openai` SDK for any OpenAI-compatible endpoint: our own retry loop
 * (the SDK's is disabled), capability steps on a refused parameter, a 200 that is not a
 * completion treated like a transport failure, shared concurrency/RPM/TPM limits, accounting.
 */
export function createProvider(options: CreateProviderOptions): OpenAIProvider {
  const chat = new OpenAIChat(options);
  const { config, baseUrl } = options;
  return {
    model: config.model,
    baseUrl,
    variant: replyVariant(config),
    chat: (request, callOptions) => chat.send(request, callOptions?.signal, false),
    totals: () => chat.account.totals(),
    downgrades: () => chat.state.downgrades(),
    check: () => chat.check(),
  };
}

/** The state and the steps of one provider: attempts, the retry loop, capability steps. */
class OpenAIChat {
  readonly account = new UsageAccount();
  readonly state: CapabilityState;
  private readonly config: ModelConfig;
  private readonly endpoint: EndpointClient;
  private readonly limits: EndpointLimits;
  private readonly clock: Clock;
  private readonly random: RandomSource;
  private readonly keySource: string | undefined;

  constructor(private readonly options: CreateProviderOptions) {
    const { config, baseUrl, apiKey } = options;
    this.config = config;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? seededRandom(0x5eed);
    this.endpoint = createEndpointClient({
      baseUrl,
      apiKey,
      auth: config.auth,
      apiVersion: config.apiVersion,
      headers: config.headers,
      timeoutMs: config.timeoutMs,
    });
    this.limits = options.limits ?? ownLimits(config, this.clock);
    this.state = options.capabilities ?? new CapabilityState({ config, endpoint: baseUrl });
    this.keySource =
      options.keySource ?? (apiKey ? `$${config.apiKeyEnv ?? "OPENAI_API_KEY"}` : undefined);
  }

  /** The preflight (`preflight.ts`); its one-token completion is not accounted. */
  check(): Promise<CheckOutcome> {
    return checkEndpoint({
      client: this.endpoint.client,
      model: this.config.model,
      baseUrl: this.options.baseUrl,
      classify: (error) => classifyFailure(error, this.failureContext(new Set())),
      complete: (request) => this.send(request, undefined, true),
    });
  }

  /** One call with retries and capability steps; a `probe` (the preflight) is not accounted. */
  async send(
    request: ChatRequest,
    signal: AbortSignal | undefined,
    probe: boolean,
  ): Promise<ChatResponse> {
    let retries = 0;
    let steps = 0;
    for (;;) {
      await this.limits.requests?.acquire(signal);
      const settings = this.state.current();
      try {
        const attempt = await this.attempt(request, settings, signal, probe);
        const response: ChatResponse = { ...attempt, retries };
        if (!probe) this.account.recordResponse(request.purpose, response);
        return response;
      } catch (error) {
        const sent = new Set(Object.keys(this.body(request, settings)));
        const decision = classifyFailure(error, this.failureContext(sent));
        if (decision.action === "refused" && steps < maxStepsPerCall) {
          if ((await this.stepDown(decision.parameter, settings, decision.error)) === "retry") {
            steps += 1;
            continue;
          }
        }
        if (decision.action !== "retry" || retries >= this.config.maxRetries) {
          if (!probe) this.account.recordFailedRetries(retries);
          throw this.finalError(decision, error, retries);
        }
        const waitMs =
          decision.waitMs ??
          backoffDelayMs(retries, this.random, this.options.backoff ?? defaultBackoff);
        retries += 1;
        await this.clock.sleep(waitMs, signal);
      }
    }
  }

  /** One request under the shared limits and the attempt deadline, read and checked. */
  private async attempt(
    request: ChatRequest,
    settings: WireSettings,
    signal: AbortSignal | undefined,
    shapeOnly: boolean,
  ): Promise<Omit<ChatResponse, "retries">> {
    const { config, clock } = this;
    const body = this.body(request, settings);
    const tokenLimit = request.maxTokens ?? config.maxTokens;
    const settle = await this.limits.tokens?.acquire(estimateTokens(body, tokenLimit), signal);
    return this.limits.concurrency.run(() =>
      withDeadline(config.timeoutMs, signal, async (attemptSignal) => {
        const started = clock.now();
        const { data, response } = await this.endpoint.client.chat.completions
          .create(body, { signal: attemptSignal })
          .withResponse();
        const latencyMs = Math.max(0, clock.now() - started);
        const contentType = response.headers.get("content-type");
        const problem = completionProblem(data, { contentType, tokenLimit, shapeOnly });
        if (problem) throw new NotACompletionError(problem.reason, problem.remedy);
        const mapped = fromOpenAIResponse(data, {
          textTools: settings.tools === "text",
          offeredTools: (request.tools?.length ?? 0) > 0,
        });
        await this.observe(wireReplyOf(data), settings, body);
        const usage = {
          promptTokens: mapped.promptTokens,
          completionTokens: mapped.completionTokens,
        };
        settle?.(usage.promptTokens + usage.completionTokens);
        return {
          content: mapped.content,
          toolCalls: mapped.toolCalls,
          finishReason: mapped.finishReason,
          usage,
          latencyMs,
          costUsd: costOf(usage, config.price),
          model: mapped.model ?? config.model,
          ...(mapped.reasoning ? { reasoning: mapped.reasoning } : {}),
          ...(mapped.refused ? { refused: true } : {}),
        };
      }),
    );
  }

  /** Steps the capability records read off a reply (a server that ignores what it was sent). */
  private async observe(reply: WireReply, settings: WireSettings, body: object): Promise<void> {
    for (const { parameter, reason } of observedRefusals(reply, settings, body as ChatBody))
      await this.state.refused(parameter, settings, reason);
  }

  private body(request: ChatRequest, settings: WireSettings) {
    return toOpenAIRequest(request, { ...this.config, settings });
  }

  private failureContext(sent: ReadonlySet<string>): FailureContext {
    return {
      baseUrl: this.options.baseUrl,
      model: this.config.model,
      keySource: this.keySource,
      apiKey: this.options.apiKey,
      timeoutMs: this.config.timeoutMs,
      nowMs: this.clock.now(),
      maxRetryAfterMs: this.options.maxRetryAfterMs ?? defaultMaxRetryAfterMs,
      sent,
      reason: (error: APIError) => {
        const body = this.endpoint.errorBody(error.headers);
        return body === undefined ? undefined : serverReason(body);
      },
    };
  }

  /** The error a call ends with when this failure is not (or no longer) retried. */
  private finalError(decision: FailureDecision, error: unknown, retries: number): unknown {
    if (decision.action === "rethrow") return error;
    if (decision.action === "fail") return decision.error;
    if (decision.action === "refused") return fixedSettingError(decision.parameter, decision.error);
    const remedy =
      decision.remedy ?? "check the server or raise model.maxRetries / model.timeoutMs";
    return new TransportError(
      "llm",
      `LLM call to ${this.options.baseUrl} failed after ${retries + 1} attempt(s), last: ${decision.summary}; ${remedy}`,
      { retryable: true },
    );
  }

  /** Hands a refusal to the shared capability state: step down (and re-send) or not. */
  private async stepDown(
    parameter: string,
    sent: WireSettings,
    error: TransportError,
  ): Promise<"retry" | "fixed"> {
    const reason = String((error.details.cause as { message?: unknown })?.message ?? error.message);
    const outcome = await this.state.refused(
      parameter,
      sent,
      redactSecret(reason, this.options.apiKey),
    );
    return outcome.kind;
  }
}

/** The refusal of a parameter the config fixes (or with no step left), with what to change. */
function fixedSettingError(parameter: string, error: TransportError): TransportError {
  return new TransportError("llm", `${error.message}; ${fixFor(parameter)}`, {
    ...error.details,
    retryable: false,
  });
}
