import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { TransportError } from "../errors/transport-error.js";
import { redactSecret } from "./redact.js";
import { retryAfterMs } from "./retry-timing.js";

/** What the retry loop should do about one failed attempt. */
export type FailureDecision =
  /** Try again, after the server's requested delay when it gave one. */
  | { action: "retry"; waitMs?: number; summary: string }
  /** Give up now with this error. */
  | { action: "fail"; error: TransportError }
  /** The caller aborted, or the error is not a transport failure (a bug): rethrow it untouched. */
  | { action: "rethrow" };

/** What the classifier needs to know to write an actionable message. */
export interface FailureContext {
  baseUrl: string;
  model: string;
  apiKeyEnv: string;
  apiKey: string;
  timeoutMs: number;
  nowMs: number;
  /** Longest Retry-After we are willing to wait. */
  maxRetryAfterMs: number;
}

/** Sorts one failed attempt into retry / fail fast / abort, without ever quoting the API key. */
export function classifyFailure(error: unknown, context: FailureContext): FailureDecision {
  if (error instanceof APIUserAbortError) return { action: "rethrow" };
  if (error instanceof APIConnectionTimeoutError) {
    return { action: "retry", summary: `timed out after ${context.timeoutMs} ms` };
  }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return {
      action: "retry",
      summary: `connection failed (${redactSecret(error.message + cause, context.apiKey)})`,
    };
  }
  if (error instanceof APIError && typeof error.status === "number")
    return classifyStatus(error, context);
  if (error instanceof SyntaxError) {
    return { action: "retry", summary: "the response body was not valid JSON" };
  }
  return { action: "rethrow" };
}

function classifyStatus(error: APIError, context: FailureContext): FailureDecision {
  const status = error.status as number;
  const said = serverSaid(error, context.apiKey);
  const from = `${status} from ${context.baseUrl}`;
  const fail = (message: string, retryable = false): FailureDecision => ({
    action: "fail",
    error: new TransportError("llm", message, {
      status,
      retryable,
      cause: safeCause(error, context.apiKey),
    }),
  });
  if (status === 429) {
    if (isQuotaExhausted(error)) {
      return fail(
        `${from}: insufficient_quota — the account behind $${context.apiKeyEnv} has no quota or credit left; add credit or use another key${said}`,
      );
    }
    const waitMs = retryAfterMs(error.headers, context.nowMs);
    if (waitMs !== undefined && waitMs > context.maxRetryAfterMs) {
      return fail(
        `${from}: rate limited and asked to wait ${formatSeconds(waitMs)} (Retry-After), more than the ${formatSeconds(context.maxRetryAfterMs)} cap; lower model.requestsPerMinute or model.maxConcurrency, or try again later${said}`,
        true,
      );
    }
    return { action: "retry", waitMs, summary: `429 rate limited${said}` };
  }
  if (status === 408 || status === 409 || status >= 500) {
    const waitMs = retryAfterMs(error.headers, context.nowMs);
    if (waitMs !== undefined && waitMs > context.maxRetryAfterMs) {
      return fail(
        `${from}: asked to wait ${formatSeconds(waitMs)} (Retry-After) before retrying, more than the ${formatSeconds(context.maxRetryAfterMs)} cap; try again later${said}`,
        true,
      );
    }
    return { action: "retry", waitMs, summary: `${status}${said}` };
  }
  if (status === 401)
    return fail(
      `${from}: the API key in $${context.apiKeyEnv} was refused; set it to a valid key for this endpoint${said}`,
    );
  if (status === 403) {
    return fail(
      `${from}: the API key in $${context.apiKeyEnv} is not allowed to use model '${context.model}' here; check the key's permissions${said}`,
    );
  }
  if (status === 404) {
    return fail(
      `${from}: model '${context.model}' or the chat completions route was not found; check model.model and model.baseUrl (usually ending in /v1)${said}`,
    );
  }
  if (status === 400 || status === 422) {
    return fail(
      `${from}: the endpoint rejected the request; it may not support a parameter Ecdysis sent (tools, seed, response_format) or the prompt is too long${said}`,
    );
  }
  return fail(`${from}: unexpected status${said}`);
}

function isQuotaExhausted(error: APIError): boolean {
  return error.code === "insufficient_quota" || error.type === "insufficient_quota";
}

/** The server's own explanation, bounded and scrubbed of the key. */
function serverSaid(error: APIError, apiKey: string): string {
  const body = error.error as { message?: unknown } | undefined;
  const raw =
    typeof body?.message === "string" ? body.message : error.message.replace(/^\d{3}\s*/, "");
  const text = redactSecret(raw, apiKey).trim().slice(0, 300);
  return text && !/status code \(no body\)/.test(text) ? ` (server said: ${text})` : "";
}

/** A plain-data cause: the SDK error object carries headers and bodies we do not want logged. */
function safeCause(error: APIError, apiKey: string): Record<string, unknown> {
  return {
    name: error.constructor.name,
    status: error.status,
    code: error.code ?? undefined,
    type: error.type ?? undefined,
    requestId: error.requestID ?? undefined,
    message: redactSecret(error.message, apiKey).slice(0, 500),
  };
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
