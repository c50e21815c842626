/** The LLM layer: one chat interface over the `openai` SDK, structured output, accounting, caching. */

export { type BodyStep, stepDownBody } from "./body-step-down.js";
export {
  type CachedProvider,
  type CachedUsageTotals,
  callCacheKey,
  withCallCache,
} from "./call-cache.js";
export {
  type CapabilityName,
  type ChatBody,
  capabilityRecords,
  type Downgrade,
  isReasoningModel,
  mapBody,
  replyVariant,
  type WireParameter,
  type WireSettings,
} from "./capabilities.js";
export { CapabilityMemory } from "./capability-memory.js";
export { CapabilityState } from "./capability-state.js";
export {
  type ChatJsonOptions,
  type ChatJsonResult,
  chatJson,
  type JsonChatRequest,
} from "./chat-json.js";
export { type Clock, systemClock } from "./clock.js";
export { completionProblem, NotACompletionError } from "./completion-check.js";
export {
  EndpointLimitRegistry,
  type EndpointLimits,
  endpointKey,
  type LimitSettings,
} from "./endpoint-limits.js";
export {
  chatCompletionEvents,
  createWireForwarder,
  type ModelGateway,
  type RolloutLease,
  type RolloutTally,
  responseEvents,
  startModelGateway,
  type WireForwarder,
} from "./gateway/index.js";
export { extractJsonCandidates } from "./json-extraction.js";
export { type EndpointAccess, isAzureHost } from "./openai-client.js";
export {
  type CreateProviderOptions,
  createProvider,
  defaultMaxRetryAfterMs,
  type OpenAIProvider,
} from "./openai-provider.js";
export { type CheckOutcome, preflightRequest } from "./preflight.js";
export { RateLimiter } from "./rate-limiter.js";
export { redactSecret } from "./redact.js";
export { requestDigest } from "./request-digest.js";
export {
  type BackoffOptions,
  backoffDelayMs,
  defaultBackoff,
  retryAfterMs,
} from "./retry-timing.js";
export { ScriptedProvider } from "./scripted-provider.js";
export { type RandomSource, seededRandom } from "./seeded-random.js";
export { Semaphore } from "./semaphore.js";
export { strictJsonSchema, strictSchemaViolations } from "./strict-json-schema.js";
export { StructuredOutputError } from "./structured-output-error.js";
export { fromTextReply, renderToolsSection, toTextProtocol } from "./text-tool-protocol.js";
export { TokenRateLimiter } from "./token-rate-limiter.js";
export * from "./types.js";
export {
  type AccountedProvider,
  costOf,
  emptyTotals,
  type Price,
  UsageAccount,
  withAccounting,
} from "./usage-accounting.js";
