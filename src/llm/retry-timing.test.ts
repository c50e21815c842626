import { describe, expect, it } from "vitest";
import { backoffDelayMs, retryAfterMs } from "./retry-timing.js";
import { seededRandom } from "./seeded-random.js";

const now = Date.UTC(2026, 0, 1, 12, 0, 0);

describe("retryAfterMs", () => {
  it("reads retry-after-ms before Retry-After", () => {
    expect(retryAfterMs(new Headers({ "retry-after-ms": "1500.5", "retry-after": "9" }), now)).toBe(
      1500.5,
    );
  });
  it("reads Retry-After as seconds", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "3" }), now)).toBe(3_000);
  });
  it("reads Retry-After as an HTTP date relative to the clock, never negative", () => {
    expect(
      retryAfterMs(new Headers({ "retry-after": new Date(now + 42_000).toUTCString() }), now),
    ).toBe(42_000);
    expect(
      retryAfterMs(new Headers({ "retry-after": new Date(now - 5_000).toUTCString() }), now),
    ).toBe(0);
  });
  it("ignores absent or unreadable values", () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers({ "retry-after-ms": "-1" }), now)).toBeUndefined();
  });
});

describe("backoffDelayMs", () => {
  it("doubles per attempt within equal-jitter bounds and respects the cap", () => {
    const random = seededRandom(7);
    const options = { baseDelayMs: 100, maxDelayMs: 1_000 };
    const delays = Array.from({ length: 6 }, (_, attempt) =>
      backoffDelayMs(attempt, random, options),
    );
    delays.forEach((delay, attempt) => {
      const full = Math.min(1_000, 100 * 2 ** attempt);
      expect(delay).toBeGreaterThanOrEqual(full / 2);
      expect(delay).toBeLessThanOrEqual(full);
    });
  });
  it("is reproducible for a seed and differs across seeds", () => {
    const run = (seed: number) => {
      const random = seededRandom(seed);
      return [0, 1, 2, 3].map((attempt) => backoffDelayMs(attempt, random));
    };
    expect(run(1)).toEqual(run(1));
    expect(run(1)).not.toEqual(run(2));
  });
});
