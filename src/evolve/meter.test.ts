import { describe, expect, it } from "vitest";
import { inMemoryHarness, testTask } from "../agent/testing/in-memory-harness.js";
import type { AgentAdapter, Trace } from "../agent/types.js";
import { BudgetExhaustedError } from "../errors/budget-error.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { BudgetTracker } from "./budget.js";
import { type ModelCallEvent, meterAdapter } from "./meter.js";

// A command harness calls its model itself, over HTTP: the usage it reports in its trace is the
// only account of that spend. It must count against the budget like metered calls do.

const trace = (usage: Trace["usage"]): Trace => ({
  steps: [],
  events: [],
  output: "Answer: 4",
  answer: "4",
  usage,
  latencyMs: 1,
});

/** An adapter that returns a fixed trace; records how often it ran. */
function fixedAdapter(usage: Trace["usage"], usageFromTrace: boolean) {
  const calls: string[] = [];
  const adapter: AgentAdapter = {
    ...(usageFromTrace ? { usageFromTrace: true } : {}),
    async run({ task }) {
      calls.push(task.id);
      return trace(usage);
    },
  };
  return { adapter, calls };
}

const input = (id: string) => ({
  task: testTask("2+2?", id),
  harness: inMemoryHarness(""),
  provider: new ScriptedProvider(() => undefined, "model-x"),
  sampleIndex: 0,
});

const usage = { promptTokens: 1000, completionTokens: 200, llmCalls: 2, costUsd: 0.25 };

describe("meterAdapter", () => {
  it("adds the agent's reported usage to the budget when the agent calls its model itself", async () => {
    const budget = new BudgetTracker({}, () => 0);
    const { adapter } = fixedAdapter(usage, true);
    const metered = meterAdapter({ adapter, budget, enforce: true });
    expect(metered.usageFromTrace).toBe(true);
    await metered.run(input("a"));
    await metered.run(input("b"));
    const spent = budget.snapshot();
    expect(spent).toMatchObject({
      rollouts: 2,
      llmCalls: 4,
      promptTokens: 2000,
      completionTokens: 400,
      costUsd: 0.5,
      refinerCostUsd: 0,
    });
  });

  it("tells live progress of the agent's own calls, one event per rollout that made some", async () => {
    const budget = new BudgetTracker({}, () => 0);
    const events: ModelCallEvent[] = [];
    const { adapter } = fixedAdapter(usage, true);
    const metered = meterAdapter({ adapter, budget, enforce: true, onCall: (e) => events.push(e) });
    await metered.run(input("a"));
    expect(events).toEqual([
      {
        phase: "end",
        role: "agent",
        purpose: "agent",
        calls: 2,
        promptTokens: 1000,
        completionTokens: 200,
        costUsd: 0.25,
      },
    ]);
    const idle = fixedAdapter(
      { promptTokens: 0, completionTokens: 0, llmCalls: 0, costUsd: 0 },
      true,
    );
    await meterAdapter({ ...idle, budget, enforce: true, onCall: (e) => events.push(e) }).run(
      input("b"),
    );
    expect(events).toHaveLength(1);
  });

  it("stops starting rollouts once the agent's own spend reaches budget.costUsd", async () => {
    const budget = new BudgetTracker({ costUsd: 0.6 }, () => 0);
    const { adapter, calls } = fixedAdapter(usage, true);
    const metered = meterAdapter({ adapter, budget, enforce: true });
    await metered.run(input("a"));
    await metered.run(input("b"));
    await metered.run(input("c"));
    await expect(metered.run(input("d"))).rejects.toBeInstanceOf(BudgetExhaustedError);
    expect(calls).toEqual(["a", "b", "c"]);
    expect(budget.exceeded()?.resource).toBe("costUsd");
  });

  it("does not count a built-in agent's usage twice (its calls are metered at the provider)", async () => {
    const budget = new BudgetTracker({}, () => 0);
    const { adapter } = fixedAdapter(usage, false);
    await meterAdapter({ adapter, budget, enforce: true }).run(input("a"));
    expect(budget.snapshot()).toMatchObject({ rollouts: 1, llmCalls: 0, costUsd: 0 });
  });
});
