import { describe, expect, it } from "vitest";
import { EndpointLimitRegistry, endpointKey } from "./endpoint-limits.js";
import { RecordingClock } from "./testing/recording-clock.js";
import { TokenRateLimiter } from "./token-rate-limiter.js";

describe("TokenRateLimiter", () => {
  it("waits until a request's tokens fit into the last minute, settling to what was used", async () => {
    const clock = new RecordingClock();
    const limiter = new TokenRateLimiter(1_000, clock);
    const settle = await limiter.acquire(800);
    settle(300);
    await limiter.acquire(600);
    expect(clock.sleeps).toEqual([]);
    await limiter.acquire(500);
    expect(clock.sleeps).toEqual([60_000]);
  });

  it("lets one request larger than the whole limit run alone", async () => {
    const clock = new RecordingClock();
    const limiter = new TokenRateLimiter(100, clock);
    await limiter.acquire(5_000);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("EndpointLimitRegistry", () => {
  it("gives roles on one endpoint and key one set of limits, the strictest of their configs", () => {
    const registry = new EndpointLimitRegistry(new RecordingClock());
    const key = endpointKey("http://host/v1/", "sk-1");
    registry.declare(key, { maxConcurrency: 8, requestsPerMinute: 600 });
    registry.declare(endpointKey("http://host/v1", "sk-1"), {
      maxConcurrency: 3,
      tokensPerMinute: 9_000,
    });
    registry.declare(endpointKey("http://host/v1", "sk-2"), { maxConcurrency: 5 });
    const shared = registry.limitsFor(key);
    expect(shared.concurrency.limit).toBe(3);
    expect(shared.requests).toBeDefined();
    expect(shared.tokens).toBeDefined();
    expect(registry.limitsFor(endpointKey("http://host/v1", "sk-1"))).toBe(shared);
    expect(registry.limitsFor(endpointKey("http://host/v1", "sk-2")).concurrency.limit).toBe(5);
    expect(key).not.toContain("sk-1");
  });
});
