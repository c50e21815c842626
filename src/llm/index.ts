/** The LLM layer: one chat interface over the `openai` SDK, structured output, accounting, caching. */
export {
  type CachedProvider,
  type CachedUsageTotals,
  callCacheKey,
  withCallCache,
} from "./call-cache.js";
export {
  type ChatJsonOptions,
  type ChatJsonResult,
  chatJson,
  type JsonChatRequest,
} from "./chat-json.js";
export { type Clock, systemClock } from "./clock.js";
export { extractJsonCandidates } from "./json-extraction.js";
export {
  type CreateProviderOptions,
  createProvider,
  defaultMaxRetryAfterMs,
} from "./openai-provider.js";
export { RateLimiter } from "./rate-limiter.js";
export { redactSecret } from "./redact.js";
export {
  type BackoffOptions,
  backoffDelayMs,
  defaultBackoff,
  retryAfterMs,
} from "./retry-timing.js";
export { ScriptedProvider } from "./scripted-provider.js";
export { type RandomSource, seededRandom } from "./seeded-random.js";
export { Semaphore } from "./semaphore.js";
export { StructuredOutputError } from "./structured-output-error.js";
export * from "./types.js";
export {
  type AccountedProvider,
  costOf,
  emptyTotals,
  type Price,
  UsageAccount,
  withAccounting,
} from "./usage-accounting.js";
