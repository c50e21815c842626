import { describe, expect, it } from "vitest";
import { CallTally } from "./call-tally.js";

describe("CallTally", () => {
  it("counts a command agent's rollout as the calls it reports, priced as agent spend", () => {
    const tally = new CallTally();
    tally.add({ phase: "start", role: "refiner", purpose: "diagnostician" }, 0);
    tally.add(
      { phase: "end", role: "refiner", purpose: "diagnostician", promptTokens: 10, costUsd: 0.5 },
      1,
    );
    tally.add(
      {
        phase: "end",
        role: "agent",
        purpose: "agent",
        calls: 3,
        promptTokens: 90,
        completionTokens: 30,
        costUsd: 0.25,
      },
      2,
    );
    tally.add({ phase: "end", role: "agent", purpose: "agent", cached: true }, 3);
    expect(tally.totals()).toEqual({
      calls: 4,
      replayed: 1,
      tokens: 130,
      costUsd: 0.75,
      agentCostUsd: 0.25,
      refinerCostUsd: 0.5,
    });
  });
});
