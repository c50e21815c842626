import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { TransportError } from "../errors/transport-error.js";
import { NotACompletionError } from "./completion-check.js";
import { ContextLengthError, isContextLengthRefusal } from "./context-length-error.js";
import { redactSecret } from "./redact.js";
import { retryAfterMs } from "./retry-timing.js";
import type { ServerReason } from "./server-reason.js";
import { refusedParameter } from "./unsupported-parameter.js";

/** What the retry loop should do about one failed attempt. */
export type FailureDecision =
  /** Try again, after the server's requested delay when it gave one. */
  | { action: "retry"; waitMs?: number; summary: string; remedy?: string }
  /** The server refused a parameter it does not support: step down, or fail when it is fixed. */
  | { action: "refused"; parameter: string; error: TransportError }
  /** Give up now with this error. */
  | { action: "fail"; error: TransportError }
  /** The caller aborted, or the error is not a transport failure (a bug): rethrow it untouched. */
  | { action: "rethrow" };

/** What the classifier needs to know to write an actionable message. */
export interface FailureContext {
  baseUrl: string;
  model: string;
  /** Where the key came from (`$NAME`), or undefined when none was sent. */
  keySource?: string;
  apiKey?: string;
  timeoutMs: number;
  nowMs: number;
  /** Longest Retry-After we are willing to wait. */
  maxRetryAfterMs: number;
  /** Top-level body fields the failed request carried. */
  sent: ReadonlySet<string>;
  /** The server's error body, read from the raw response (see `openai-client.ts`). */
  reason?: (error: APIError) => ServerReason | undefined;
}

/** Sorts one failed attempt into retry / step down / fail fast / abort, never quoting the key. */
export function classifyFailure(error: unknown, context: FailureContext): FailureDecision {
  if (error instanceof APIUserAbortError) return { action: "rethrow" };
  if (error instanceof APIConnectionTimeoutError) {
    return { action: "retry", summary: `timed out after ${context.timeoutMs} ms` };
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${causeText(error.cause)}` : "";
    return {
      action: "retry",
      summary: `connection failed (${redactSecret(error.message + cause, context.apiKey)})`,
    };
  }
  if (error instanceof APIError && typeof error.status === "number")
    return classifyStatus(error, context);
  if (error instanceof NotACompletionError)
    return {
      action: "retry",
      summary: redactSecret(error.reason, context.apiKey),
      remedy: error.remedy,
    };
  if (error instanceof SyntaxError) {
    return { action: "retry", summary: "the response body was not valid JSON (cut off?)" };
  }
  if (isDroppedConnection(error)) {
    return {
      action: "retry",
      summary: `connection dropped mid-response (${causeText(error as Error)})`,
    };
  }
  return { action: "rethrow" };
}

/**
 * undici's `TypeError: terminated` (the socket closed while the body was read) and its
 * relatives: the reply was cut off by the network, not refused by the server.
 */
function isDroppedConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  return (
    (error instanceof TypeError && /^(terminated|fetch failed)$/i.test(error.message)) ||
    (typeof code === "string" && /^(UND_ERR_SOCKET|ECONNRESET|EPIPE|UND_ERR_CLOSED)$/.test(code))
  );
}

function causeText(error: Error): string {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

function classifyStatus(error: APIError, context: FailureContext): FailureDecision {
  const reading = readStatus(error, context);
  const { status } = reading;
  if (status === 429) return rateLimited(error, context, reading);
  const refusal = refusedOrTooLong(error, context, reading);
  if (refusal) return refusal;
  if (status === 408 || status === 409 || status >= 500) return transient(error, context, reading);
  return fail(reading, refusedRequestMessage(status, context) + reading.said);
}

/** What every decision on an HTTP status is worded and built with. */
interface StatusReading {
  status: number;
  reason: ServerReason;
  /** ` (server said: …)`, scrubbed of the key, or empty. */
  said: string;
  /** `<status> from <baseUrl>`, the start of every message. */
  from: string;
  /** A transport error carrying the status and a plain-data cause. */
  failure(message: string, retryable?: boolean): TransportError;
}

function readStatus(error: APIError, context: FailureContext): StatusReading {
  const status = error.status as number;
  const reason = context.reason?.(error) ?? fallbackReason(error);
  return {
    status,
    reason,
    said: serverSaid(reason, context.apiKey),
    from: `${status} from ${context.baseUrl}`,
    failure: (message, retryable = false) =>
      new TransportError("llm", message, {
        status,
        retryable,
        cause: safeCause(error, reason, context.apiKey),
      }),
  };
}

function fail(reading: StatusReading, message: string, retryable = false): FailureDecision {
  return { action: "fail", error: reading.failure(message, retryable) };
}

/** 429: out of quota fails now; a Retry-After past the cap fails (retryable later); else wait and retry. */
function rateLimited(
  error: APIError,
  context: FailureContext,
  reading: StatusReading,
): FailureDecision {
  const { from, said } = reading;
  if (isQuotaExhausted(error, reading.reason)) {
    return fail(
      reading,
      `${from}: insufficient_quota — the account behind ${context.keySource ?? "the key"} has no quota or credit left; add credit or use another key${said}`,
    );
  }
  const waitMs = retryAfterMs(error.headers, context.nowMs);
  if (waitMs !== undefined && waitMs > context.maxRetryAfterMs) {
    return fail(
      reading,
      `${from}: rate limited and asked to wait ${formatSeconds(waitMs)} (Retry-After), more than the ${formatSeconds(context.maxRetryAfterMs)} cap; lower model.requestsPerMinute or model.maxConcurrency, or try again later${said}`,
      true,
    );
  }
  return { action: "retry", waitMs, summary: `429 rate limited${said}` };
}

/** A parameter the server does not accept (400, 422, 5xx), or a prompt longer than the context. */
function refusedOrTooLong(
  error: APIError,
  context: FailureContext,
  reading: StatusReading,
): FailureDecision | undefined {
  const { status, reason, from, said } = reading;
  const parameter =
    status === 400 || status === 422 || status >= 500
      ? refusedParameter({ status, ...reason }, context.sent)
      : undefined;
  if (parameter) {
    return {
      action: "refused",
      parameter,
      error: reading.failure(`${from}: the server does not accept '${parameter}'${said}`),
    };
  }
  if (!isContextLengthRefusal({ status, ...reason })) return undefined;
  return {
    action: "fail",
    error: new ContextLengthError(`${from}: the prompt is longer than the model's context${said}`, {
      status,
      cause: safeCause(error, reason, context.apiKey),
    }),
  };
}

/** 408, 409, 5xx: retry, after the server's Retry-After unless it is past the cap. */
function transient(
  error: APIError,
  context: FailureContext,
  reading: StatusReading,
): FailureDecision {
  const waitMs = retryAfterMs(error.headers, context.nowMs);
  if (waitMs !== undefined && waitMs > context.maxRetryAfterMs) {
    return fail(
      reading,
      `${reading.from}: asked to wait ${formatSeconds(waitMs)} (Retry-After) before retrying, more than the ${formatSeconds(context.maxRetryAfterMs)} cap; try again later${reading.said}`,
      true,
    );
  }
  return { action: "retry", waitMs, summary: `${reading.status}${reading.said}` };
}

/** What a 4xx that is final says and what to fix (401, 403, 404, 400/422, anything else). */
function refusedRequestMessage(status: number, context: FailureContext): string {
  const from = `${status} from ${context.baseUrl}`;
  const key = context.keySource ? `the API key in ${context.keySource}` : undefined;
  if (status === 401) {
    return key
      ? `${from}: ${key} was refused; set it to a valid key for this endpoint`
      : `${from}: no API key was sent (model.apiKeyEnv is not set and $OPENAI_API_KEY is empty), and the server asks for one; name the variable that holds it in model.apiKeyEnv`;
  }
  if (status === 403)
    return `${from}: ${key ?? "the request"} is not allowed to use model '${context.model}' here; check the key's permissions and the model name`;
  if (status === 404)
    return `${from}: model '${context.model}' or the chat completions route was not found; check model.model and model.baseUrl (usually ending in /v1; Azure: the deployment URL and model.apiVersion)`;
  if (status === 400 || status === 422)
    return `${from}: the endpoint rejected the request (a parameter it does not take, or a prompt that is too long)`;
  return `${from}: unexpected status`;
}

function fallbackReason(error: APIError): ServerReason {
  const body = error.error as { message?: unknown } | undefined;
  const message =
    typeof body?.message === "string" ? body.message : error.message.replace(/^\d{3}\s*/, "");
  return {
    message: /status code \(no body\)/.test(message) ? "" : message,
    param: typeof error.param === "string" ? error.param : undefined,
    code: typeof error.code === "string" ? error.code : undefined,
    type: typeof error.type === "string" ? error.type : undefined,
  };
}

function isQuotaExhausted(error: APIError, reason: ServerReason): boolean {
  return [error.code, error.type, reason.code, reason.type].includes("insufficient_quota");
}

/**
 * The server's whole explanation, on one line and scrubbed of the key. Only an unbounded
 * non-JSON body (a proxy's HTML page) is cut, at 2 000 characters.
 */
function serverSaid(reason: ServerReason, apiKey: string | undefined): string {
  let text = redactSecret(reason.message, apiKey).replace(/\s+/g, " ").trim();
  if (text.length > 2_000)
    text = `${text.slice(0, 2_000)}… (${text.length - 2_000} more characters)`;
  return text ? ` (server said: ${text})` : "";
}

/** A plain-data cause: the SDK error object carries headers and bodies we do not want logged. */
function safeCause(
  error: APIError,
  reason: ServerReason,
  apiKey: string | undefined,
): Record<string, unknown> {
  return {
    name: error.constructor.name,
    status: error.status,
    code: reason.code ?? error.code ?? undefined,
    type: reason.type ?? error.type ?? undefined,
    param: reason.param ?? undefined,
    requestId: error.requestID ?? undefined,
    message: redactSecret(reason.message, apiKey),
  };
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
