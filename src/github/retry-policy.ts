/** What a failed GitHub response looked like, for deciding whether to retry it. */
export interface FailedResponse {
  status: number;
  headers: Record<string, string | number | undefined>;
  message: string;
}

/** Bounds of the retry policy. */
export interface RetryLimits {
  /** Attempts after the first. */
  maxRetries: number;
  /** Longest single wait, ms; a longer `retry-after` gives up instead of blocking the job. */
  maxWaitMs: number;
}

/** The defaults: three retries, at most two minutes each. */
const defaultRetryLimits: RetryLimits = { maxRetries: 3, maxWaitMs: 120_000 };

function header(response: FailedResponse, name: string): string | undefined {
  const value = response.headers[name] ?? response.headers[name.toLowerCase()];
  return value === undefined ? undefined : String(value);
}

/**
 * GitHub's documented rule for rate limits (403/429): wait `retry-after` seconds; else, when
 * `x-ratelimit-remaining` is 0, until `x-ratelimit-reset`; else (secondary limit) at least a
 * minute, doubling. 5xx retries with a short backoff. Every other 4xx (validation, permission)
 * is final. Returns the wait in ms, or undefined to give up.
 */
export function retryDelayMs(options: {
  response: FailedResponse;
  attempt: number;
  nowMs: number;
  limits?: RetryLimits;
}): number | undefined {
  const { response, attempt, nowMs } = options;
  const limits = options.limits ?? defaultRetryLimits;
  if (attempt >= limits.maxRetries) return undefined;
  let wait: number | undefined;
  if (response.status === 403 || response.status === 429) {
    const retryAfter = header(response, "retry-after");
    const remaining = header(response, "x-ratelimit-remaining");
    const reset = header(response, "x-ratelimit-reset");
    const secondary = /secondary rate limit|abuse/i.test(response.message);
    if (retryAfter !== undefined && /^\d+$/.test(retryAfter)) wait = Number(retryAfter) * 1000;
    else if (remaining === "0" && reset !== undefined && /^\d+$/.test(reset))
      wait = Math.max(0, Number(reset) * 1000 - nowMs) + 1000;
    else if (secondary || response.status === 429) wait = 60_000 * 2 ** attempt;
  } else if (response.status >= 500) {
    wait = 1000 * 2 ** attempt;
  }
  if (wait === undefined || wait > limits.maxWaitMs) return undefined;
  return wait;
}
