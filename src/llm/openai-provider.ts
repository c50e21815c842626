import OpenAI, { APIConnectionTimeoutError } from "openai";
import type { ModelConfig } from "../config/config-schema.js";
import { TransportError } from "../errors/transport-error.js";
import { type Clock, systemClock } from "./clock.js";
import { classifyFailure } from "./failure-classification.js";
import { fromOpenAIResponse, toOpenAIRequest } from "./openai-mapping.js";
import { RateLimiter } from "./rate-limiter.js";
import { type BackoffOptions, backoffDelayMs, defaultBackoff } from "./retry-timing.js";
import { type RandomSource, seededRandom } from "./seeded-random.js";
import { Semaphore } from "./semaphore.js";
import type { ChatRequest, ChatResponse } from "./types.js";
import { type AccountedProvider, costOf, UsageAccount } from "./usage-accounting.js";

/** Options of {@link createProvider}. */
export interface CreateProviderOptions {
  config: ModelConfig;
  /** OpenAI-compatible base URL, usually ending in `/v1`. */
  baseUrl: string;
  /** The key itself (read from `$config.apiKeyEnv` by the caller); never echoed anywhere. */
  apiKey: string;
  /** Time source for retry waits, rate limiting and latency; the system clock by default. */
  clock?: Clock;
  /** Jitter source for backoff; a fixed-seed generator by default, so runs are reproducible. */
  random?: RandomSource;
  /** Longest `Retry-After` honoured; a longer one fails the call. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Backoff for retries the server gave no `Retry-After` for. */
  backoff?: BackoffOptions;
}

/** Default cap on a server-requested wait. */
export const defaultMaxRetryAfterMs = 60_000;

/**
 * A chat provider over the `openai` SDK for any OpenAI-compatible endpoint, with our own retry
 * loop (the SDK's is disabled), client-side concurrency and RPM limits, and usage accounting.
 */
export function createProvider(options: CreateProviderOptions): AccountedProvider {
  const { config, baseUrl, apiKey } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? seededRandom(0x5eed);
  const maxRetryAfterMs = options.maxRetryAfterMs ?? defaultMaxRetryAfterMs;
  const backoff = options.backoff ?? defaultBackoff;
  const client = new OpenAI({
    baseURL: baseUrl,
    apiKey,
    maxRetries: 0,
    timeout: config.timeoutMs,
    logLevel: "off",
  });
  const semaphore = new Semaphore(config.maxConcurrency);
  const limiter = config.requestsPerMinute
    ? new RateLimiter(config.requestsPerMinute, clock)
    : undefined;
  const account = new UsageAccount();
  const defaults = {
    model: config.model,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
  };

  async function attempt(
    request: ChatRequest,
    signal: AbortSignal | undefined,
  ): Promise<Omit<ChatResponse, "retries">> {
    const body = toOpenAIRequest(request, defaults);
    return semaphore.run(() =>
      withDeadline(config.timeoutMs, signal, async (attemptSignal) => {
        const started = clock.now();
        const completion = await client.chat.completions.create(body, { signal: attemptSignal });
        const latencyMs = Math.max(0, clock.now() - started);
        const mapped = fromOpenAIResponse(completion);
        const usage = {
          promptTokens: mapped.promptTokens,
          completionTokens: mapped.completionTokens,
        };
        return {
          content: mapped.content,
          toolCalls: mapped.toolCalls,
          finishReason: mapped.finishReason,
          usage,
          latencyMs,
          costUsd: costOf(usage, config.price),
          model: mapped.model ?? config.model,
        };
      }),
    );
  }

  async function chat(
    request: ChatRequest,
    callOptions?: { signal?: AbortSignal },
  ): Promise<ChatResponse> {
    const signal = callOptions?.signal;
    let retries = 0;
    for (;;) {
      await limiter?.acquire(signal);
      try {
        const response: ChatResponse = { ...(await attempt(request, signal)), retries };
        account.recordResponse(request.purpose, response);
        return response;
      } catch (error) {
        const decision = classifyFailure(error, {
          baseUrl,
          model: config.model,
          apiKeyEnv: config.apiKeyEnv,
          apiKey,
          timeoutMs: config.timeoutMs,
          nowMs: clock.now(),
          maxRetryAfterMs,
        });
        if (decision.action === "rethrow") {
          account.recordFailedRetries(retries);
          throw error;
        }
        if (decision.action === "fail") {
          account.recordFailedRetries(retries);
          throw decision.error;
        }
        if (retries >= config.maxRetries) {
          account.recordFailedRetries(retries);
          throw new TransportError(
            "llm",
            `LLM call to ${baseUrl} failed after ${retries + 1} attempt(s), last: ${decision.summary}; check the server or raise model.maxRetries / model.timeoutMs`,
            { retryable: true },
          );
        }
        const waitMs = decision.waitMs ?? backoffDelayMs(retries, random, backoff);
        retries += 1;
        await clock.sleep(waitMs, signal);
      }
    }
  }

  return { model: config.model, baseUrl: options.baseUrl, chat, totals: () => account.totals() };
}

/**
 * Runs one attempt under a wall-clock deadline covering the whole response, body included: the
 * SDK's own timeout stops at the headers, so a server that stalls mid-body would hang forever.
 * A deadline hit surfaces as the SDK's timeout error, so it is retried like one.
 */
async function withDeadline<T>(
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) forwardAbort();
  callerSignal?.addEventListener("abort", forwardAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    return await run(controller.signal);
  } catch (error) {
    if (timedOut && !callerSignal?.aborted) throw new APIConnectionTimeoutError();
    throw error;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener("abort", forwardAbort);
  }
}
