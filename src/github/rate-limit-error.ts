import { TransportError } from "../errors/transport-error.js";

function header(headers: Record<string, string | number | undefined>, name: string) {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return value === undefined ? undefined : String(value);
}

/** When the limit lifts, in ms since the epoch, from GitHub's headers (undefined: it did not say). */
function resetAt(headers: Record<string, string | number | undefined>, nowMs: number) {
  const retryAfter = header(headers, "retry-after");
  if (retryAfter !== undefined && /^\d+$/.test(retryAfter))
    return nowMs + Number(retryAfter) * 1000;
  const reset = header(headers, "x-ratelimit-reset");
  if (reset !== undefined && /^\d+$/.test(reset)) return Number(reset) * 1000;
  return undefined;
}

/**
 * A GitHub rate limit the retry policy gave up on (its wait was longer than a job should block,
 * or the retries ran out), as one line that says when to retry: the time the limit lifts, from
 * `retry-after` or `x-ratelimit-reset`. Undefined when the answer is no rate limit.
 */
export function rateLimitError(options: {
  method: string;
  route: string;
  status: number;
  headers: Record<string, string | number | undefined>;
  message: string;
  nowMs: number;
}): TransportError | undefined {
  const { status, headers, message, nowMs } = options;
  if (status !== 403 && status !== 429) return undefined;
  const secondary = /secondary rate limit|abuse/i.test(message);
  const primary = header(headers, "x-ratelimit-remaining") === "0";
  if (!secondary && !primary && status !== 429 && header(headers, "retry-after") === undefined)
    return undefined;
  const at = resetAt(headers, nowMs);
  const when =
    at === undefined
      ? "retry in a few minutes (GitHub gave no reset time)"
      : `retry after ${new Date(at).toISOString().slice(11, 19)} UTC (in ${Math.max(1, Math.ceil((at - nowMs) / 60_000))} min)`;
  return new TransportError(
    "github",
    `GitHub's ${secondary ? "secondary " : ""}rate limit stopped ${options.method} ${options.route} (${status} "${message}"): ${when}, then re-run the workflow.`,
    { status, retryable: true },
  );
}
