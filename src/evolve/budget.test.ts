import { describe, expect, it } from "vitest";
import { BudgetExhaustedError } from "../errors/budget-error.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { BudgetTracker } from "./budget.js";
import { meterProvider } from "./meter.js";

describe("budget", () => {
  it("aborts its signal once a limit is reached and names the resource", () => {
    const budget = new BudgetTracker({ rollouts: 3 }, () => 0);
    budget.add({ rollouts: 2 });
    expect(budget.exceeded()).toBeUndefined();
    budget.add({ rollouts: 1 });
    expect(budget.signal.aborted).toBe(true);
    expect(() => budget.check()).toThrow(BudgetExhaustedError);
    expect(budget.exceeded()?.resource).toBe("rollouts");
  });

  it("counts wall time from the injected clock", () => {
    let now = 1000;
    const budget = new BudgetTracker({ wallMs: 500 }, () => now);
    now = 1400;
    expect(budget.exceeded()).toBeUndefined();
    now = 1500;
    expect(budget.exceeded()?.resource).toBe("wallMs");
  });

  it("measures what a piece of work spent itself, not what ran alongside it", async () => {
    const budget = new BudgetTracker({}, () => 0);
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
    const spend = async (rollouts: number) => {
      for (let count = 0; count < rollouts; count++) {
        await tick();
        budget.add({ rollouts: 1 });
      }
    };
    const [outer, other] = await Promise.all([
      budget.measure(async () => {
        const inner = await budget.measure(() => spend(2));
        await spend(1);
        return inner.spend.rollouts;
      }),
      budget.measure(() => spend(4)),
    ]);
    expect(outer.value).toBe(2);
    expect(outer.spend.rollouts).toBe(3);
    expect(other.spend.rollouts).toBe(4);
    budget.add({ rollouts: 5 });
    expect(budget.snapshot().rollouts).toBe(12);
  });

  it("leaves detached work out of the measures it was started in", async () => {
    const budget = new BudgetTracker({}, () => 0);
    let detached: Promise<{ spend: { rollouts: number } }> | undefined;
    const outer = await budget.measure(async () => {
      budget.add({ rollouts: 1 });
      detached = budget.detached(() =>
        budget.measure(async () => {
          budget.add({ rollouts: 2 });
        }),
      );
      await detached;
    });
    expect(outer.spend.rollouts).toBe(1);
    expect((await detached)?.spend.rollouts).toBe(2);
    expect(budget.snapshot().rollouts).toBe(3);
  });

  it("meters only uncached calls, and splits refiner spend", async () => {
    const budget = new BudgetTracker({ tokens: 100 }, () => 0);
    let cached = false;
    const provider = new ScriptedProvider(() => ({
      content: "x",
      usage: { promptTokens: 30, completionTokens: 10 },
      costUsd: 0.5,
      ...(cached ? { cached: true } : {}),
    }));
    const metered = meterProvider({ provider, budget, role: "refiner" });
    await metered.chat({ messages: [] });
    cached = true;
    await metered.chat({ messages: [] });
    expect(budget.snapshot()).toMatchObject({
      llmCalls: 1,
      promptTokens: 30,
      refinerCalls: 1,
      refinerTokens: 40,
      costUsd: 0.5,
    });
    cached = false;
    await metered.chat({ messages: [] });
    await metered.chat({ messages: [] });
    expect(budget.exceeded()?.resource).toBe("tokens");
  });
});
