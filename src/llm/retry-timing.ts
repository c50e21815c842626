import type { RandomSource } from "./seeded-random.js";

/**
 * How long the server asked us to wait, in ms: `retry-after-ms` (OpenAI's extension) first,
 * then `Retry-After` as delta-seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const precise = headers.get("retry-after-ms");
  if (precise !== null && precise.trim() !== "") {
    const value = Number(precise);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers.get("retry-after");
  if (header === null || header.trim() === "") return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Backoff settings of the retry loop. */
export interface BackoffOptions {
  /** Delay before the first retry, before jitter. */
  baseDelayMs: number;
  /** Upper bound of any computed delay. */
  maxDelayMs: number;
}

/** Defaults: 0.5 s, doubling, capped at 30 s. */
export const defaultBackoff: BackoffOptions = { baseDelayMs: 500, maxDelayMs: 30_000 };

/**
 * Exponential backoff with "equal jitter": half the doubled delay is fixed, the other half is
 * random, so synchronised clients spread out but no retry is ever immediate.
 */
export function backoffDelayMs(
  attempt: number,
  random: RandomSource,
  options: BackoffOptions = defaultBackoff,
): number {
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.round(exponential / 2 + random() * (exponential / 2));
}
