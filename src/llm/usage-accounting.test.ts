import { describe, expect, it } from "vitest";
import { ScriptedProvider } from "./scripted-provider.js";
import { costOf, withAccounting } from "./usage-accounting.js";

describe("costOf", () => {
  it("prices prompt and completion tokens per million", () => {
    expect(
      costOf(
        { promptTokens: 2_000_000, completionTokens: 500_000 },
        { promptPerMTok: 0.15, completionPerMTok: 0.6 },
      ),
    ).toBeCloseTo(0.6, 12);
  });
});

describe("withAccounting", () => {
  it("totals any provider's calls by purpose and returns snapshots", async () => {
    const provider = withAccounting(
      new ScriptedProvider(() => ({
        usage: { promptTokens: 7, completionTokens: 3 },
        costUsd: 0.25,
        retries: 2,
      })),
    );
    await provider.chat({ messages: [{ role: "user", content: "a" }], purpose: "judge" });
    const snapshot = provider.totals();
    await provider.chat({ messages: [{ role: "user", content: "b" }] });
    expect(snapshot).toMatchObject({ calls: 1, byPurpose: { judge: { calls: 1 } } });
    expect(provider.totals()).toEqual({
      calls: 2,
      promptTokens: 14,
      completionTokens: 6,
      costUsd: 0.5,
      retries: 4,
      byPurpose: {
        judge: { calls: 1, promptTokens: 7, completionTokens: 3, costUsd: 0.25 },
        unlabelled: { calls: 1, promptTokens: 7, completionTokens: 3, costUsd: 0.25 },
      },
    });
  });
});
