import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGitHubClient } from "../../../src/github/github-client.js";
import { retryDelayMs } from "../../../src/github/retry-policy.js";
import { GitHubApiDouble } from "../api-double/github-api-double.js";

const failed = (status: number, headers: Record<string, string> = {}, message = "") => ({
  status,
  headers,
  message,
});

describe("retryDelayMs", () => {
  it("follows GitHub's order: retry-after, then x-ratelimit-reset, then a minute doubling", () => {
    expect(
      retryDelayMs({ response: failed(403, { "retry-after": "7" }), attempt: 0, nowMs: 0 }),
    ).toBe(7000);
    expect(
      retryDelayMs({
        response: failed(429, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "100" }),
        attempt: 0,
        nowMs: 90_000,
      }),
    ).toBe(11_000);
    expect(
      retryDelayMs({
        response: failed(403, {}, "You have exceeded a secondary rate limit"),
        attempt: 1,
        nowMs: 0,
      }),
    ).toBe(120_000);
    expect(retryDelayMs({ response: failed(502), attempt: 2, nowMs: 0 })).toBe(4000);
  });

  it("never retries validation or permission errors, and gives up past the bounds", () => {
    expect(retryDelayMs({ response: failed(422), attempt: 0, nowMs: 0 })).toBeUndefined();
    expect(
      retryDelayMs({
        response: failed(
          403,
          {},
          "GitHub Actions is not permitted to create or approve pull requests.",
        ),
        attempt: 0,
        nowMs: 0,
      }),
    ).toBeUndefined();
    expect(
      retryDelayMs({ response: failed(403, { "retry-after": "3600" }), attempt: 0, nowMs: 0 }),
    ).toBeUndefined();
    expect(
      retryDelayMs({ response: failed(403, { "retry-after": "1" }), attempt: 3, nowMs: 0 }),
    ).toBeUndefined();
  });
});

describe("createGitHubClient without an answer", () => {
  it("retries a refused connection with backoff, then gives up", async () => {
    // A loopback port nobody listens on: every connection is refused.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const waits: number[] = [];
    const client = createGitHubClient({
      token: "t",
      baseUrl: `http://127.0.0.1:${port}`,
      waiter: { now: () => 0, sleep: async (ms) => void waits.push(ms) },
    });
    const error = await client.rest.repos.get({ owner: "o", repo: "r" }).catch((caught) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(waits).toEqual([1000, 2000, 4000]);
  });
});

describe("createGitHubClient against the API double", () => {
  let double: GitHubApiDouble;
  beforeEach(async () => {
    double = await new GitHubApiDouble().start();
  });
  afterEach(() => double.close());

  it("waits out a secondary rate limit (retry-after) and then succeeds", async () => {
    const waits: number[] = [];
    const client = createGitHubClient({
      token: double.token,
      baseUrl: double.url,
      waiter: { now: () => 0, sleep: async (ms) => void waits.push(ms) },
    });
    double.inject({
      operationId: "pulls/create",
      status: 403,
      body: {
        message: "You have exceeded a secondary rate limit.",
        documentation_url: "https://docs.github.com/rest",
      },
      headers: { "retry-after": "2" },
      times: 2,
    });
    const created = await client.rest.pulls.create({
      owner: "octo-org",
      repo: "agent",
      head: "y",
      base: "main",
      title: "t",
    });
    expect(created.status).toBe(201);
    expect(waits).toEqual([2000, 2000]);
    expect(double.calls("pulls/create").map((call) => call.status)).toEqual([403, 403, 201]);
    double.assertValid();
  });

  it("a rate limit it will not wait out says when to retry, in one line", async () => {
    const now = Date.parse("2026-01-05T10:00:00Z");
    const client = createGitHubClient({
      token: double.token,
      baseUrl: double.url,
      waiter: { now: () => now, sleep: async () => {} },
    });
    double.inject({
      operationId: "repos/create-commit-status",
      status: 403,
      body: {
        message: "API rate limit exceeded for installation ID 1.",
        documentation_url: "https://docs.github.com/rest",
      },
      headers: {
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(now / 1000 + 37 * 60),
      },
    });
    const error = await client.rest.repos
      .createCommitStatus({
        owner: "octo-org",
        repo: "agent",
        sha: "a".repeat(40),
        state: "success",
      })
      .catch((caught) => caught);
    expect(error.message).toBe(
      'GitHub\'s rate limit stopped POST /repos/{owner}/{repo}/statuses/{sha} (403 "API rate limit exceeded for installation ID 1."): retry after 10:37:00 UTC (in 37 min), then re-run the workflow.',
    );
    expect(double.calls("repos/create-commit-status")).toHaveLength(1);
  });

  it("does not retry a 422", async () => {
    const waits: number[] = [];
    const client = createGitHubClient({
      token: double.token,
      baseUrl: double.url,
      waiter: { now: () => 0, sleep: async (ms) => void waits.push(ms) },
    });
    await client.rest.pulls.create({
      owner: "octo-org",
      repo: "agent",
      head: "a",
      base: "main",
      title: "t",
    });
    const error = await client.rest.pulls
      .create({ owner: "octo-org", repo: "agent", head: "a", base: "main", title: "t" })
      .catch((caught) => caught);
    expect(error.status).toBe(422);
    expect(waits).toEqual([]);
    expect(double.calls("pulls/create")).toHaveLength(2);
  });
});
