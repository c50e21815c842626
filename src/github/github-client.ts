import { Octokit } from "@octokit/rest";
import { TransportError } from "../errors/transport-error.js";
import { apiPermissionError } from "./permission-error.js";
import { rateLimitError } from "./rate-limit-error.js";
import { type RetryLimits, retryDelayMs } from "./retry-policy.js";

/** The REST client the Action uses: `@octokit/rest` against `GITHUB_API_URL`. */
export type GitHubClient = Octokit;

/** Sleep and clock, injected so retry behaviour is testable without waiting. */
export interface Waiter {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Real time. */
const realWaiter: Waiter = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

interface OctokitFailure {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/** The message GitHub put in an error response body (falls back to the error's own). */
export function githubMessage(error: unknown): string {
  const failure = error as OctokitFailure;
  const data = failure.response?.data as
    | { message?: unknown; errors?: { message?: string }[] }
    | undefined;
  const parts = [
    typeof data?.message === "string" ? data.message : (failure.message ?? String(error)),
  ];
  for (const item of data?.errors ?? []) if (item?.message) parts.push(item.message);
  return parts.join(": ");
}

/** HTTP status of an Octokit error, if it has one. */
export function githubStatus(error: unknown): number | undefined {
  const status = (error as OctokitFailure).status;
  return typeof status === "number" ? status : undefined;
}

/**
 * Requests that must not be repeated blindly after a 5xx: GitHub may have done them before the
 * gateway failed, and a second one would post a second comment or pull request. Their callers
 * look first and post again only when nothing is there.
 */
function isNonIdempotent(method: string, route: string): boolean {
  return (
    method.toUpperCase() === "POST" &&
    (/\/issues\/\{issue_number\}\/comments$/.test(route) || /\/pulls$/.test(route))
  );
}

/**
 * A client with the retry policy of `retry-policy.ts` wrapped around every request. Requests
 * it gives up on keep Octokit's RequestError (callers branch on status and message), except a
 * 403 for a missing permission, which becomes a GitHubPermissionError naming the call and the
 * `permissions:` entry to add, and a rate limit it will not wait out, which says when to retry.
 */
export function createGitHubClient(options: {
  token: string;
  baseUrl: string;
  waiter?: Waiter;
  limits?: RetryLimits;
  log?: (line: string) => void;
}): GitHubClient {
  const waiter = options.waiter ?? realWaiter;
  const octokit = new Octokit({
    auth: options.token,
    baseUrl: options.baseUrl,
    userAgent: "ecdysis-action",
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  octokit.hook.wrap("request", async (request, requestOptions) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await request(requestOptions);
      } catch (error) {
        const status = githubStatus(error);
        if (status === undefined) {
          throw new TransportError("github", `GitHub API unreachable: ${githubMessage(error)}`, {
            retryable: true,
            cause: error,
          });
        }
        const headers = (error as OctokitFailure).response?.headers ?? {};
        const method = String(requestOptions.method);
        const route = String(requestOptions.url);
        const message = githubMessage(error);
        const wait =
          status >= 500 && isNonIdempotent(method, route)
            ? undefined
            : retryDelayMs({
                response: { status, headers, message },
                attempt,
                nowMs: waiter.now(),
                limits: options.limits,
              });
        if (wait === undefined)
          throw (
            apiPermissionError({ method, route, status, message }) ??
            rateLimitError({ method, route, status, headers, message, nowMs: waiter.now() }) ??
            error
          );
        options.log?.(
          `GitHub answered ${status} to ${requestOptions.method} ${requestOptions.url}; retrying in ${Math.ceil(wait / 1000)} s`,
        );
        await waiter.sleep(wait);
      }
    }
  });
  return octokit;
}
