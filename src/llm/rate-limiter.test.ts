import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limiter.js";
import { RecordingClock } from "./testing/recording-clock.js";

describe("RateLimiter", () => {
  it("lets the first request through and spaces later ones 60 000 / rpm ms apart", async () => {
    const clock = new RecordingClock({ start: 0 });
    const limiter = new RateLimiter(60, clock);
    await limiter.acquire();
    await limiter.acquire();
    await limiter.acquire();
    expect(clock.sleeps).toEqual([1_000, 1_000]);
  });

  it("does not wait when requests are already spaced out", async () => {
    const clock = new RecordingClock({ start: 0 });
    const limiter = new RateLimiter(30, clock);
    await limiter.acquire();
    clock.advance(2_500);
    await limiter.acquire();
    clock.advance(1_000);
    await limiter.acquire();
    expect(clock.sleeps).toEqual([1_000]);
  });

  it("rejects a waiting caller when its signal aborts", async () => {
    const clock = new RecordingClock({ start: 0 });
    const limiter = new RateLimiter(1, clock);
    await limiter.acquire();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(limiter.acquire(controller.signal)).rejects.toThrow("stop");
  });
});
