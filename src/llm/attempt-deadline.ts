import { APIConnectionTimeoutError } from "openai";

/** Tokens a request may count against a TPM limit: its text (chars / 4) plus the completion limit. */
export function estimateTokens(body: object, tokenLimit: number): number {
  return Math.ceil(JSON.stringify(body).length / 4) + tokenLimit;
}

/**
 * Runs one attempt under a wall-clock deadline covering the whole response, body included: the
 * SDK's own timeout stops at the headers, so a server that stalls mid-body would hang forever.
 * A deadline hit surfaces as the SDK's timeout error, so it is retried like one.
 */
export async function withDeadline<T>(
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
