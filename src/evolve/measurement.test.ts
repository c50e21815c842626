import { describe, expect, it } from "vitest";
import type { AgentAdapter, Trace } from "../agent/types.js";
import { AgentUnusableError } from "../errors/agent-unusable-error.js";
import { evaluate } from "../eval/evaluate.js";
import { exactScorer } from "../eval/scorers/exact-scorer.js";
import { EchoAgent } from "../eval/testing/echo-agent.js";
import { askedNumber, fakeHarness, numberedTasks } from "../eval/testing/fixtures.js";
import { ScriptedProvider } from "../llm/scripted-provider.js";
import { measureHarnesses } from "./measurement.js";
import type { EvaluateFn } from "./run-context.js";

/** An agent that cannot start (a command harness whose interpreter is missing on this runner). */
const crashingAgent: AgentAdapter = {
  async run(): Promise<Trace> {
    return {
      steps: [],
      events: [{ kind: "process-error", step: 0, detail: "exit 127: python3: not found" }],
      output: "",
      answer: null,
      usage: { promptTokens: 0, completionTokens: 0, llmCalls: 0, costUsd: 0 },
      latencyMs: 0,
    };
  },
};

const provider = new ScriptedProvider((request) => ({
  content: askedNumber(String(request.messages[0].content)),
}));

function measureWith(adapter: AgentAdapter, crashingFinal?: AgentAdapter) {
  const seed = fakeHarness("s".repeat(64));
  const final = fakeHarness("f".repeat(64));
  const evaluateWith =
    (split: "train" | "heldout"): EvaluateFn =>
    (request) =>
      evaluate({
        ...request,
        provider,
        adapter: request.harness === final && crashingFinal ? crashingFinal : adapter,
        scorer: () => exactScorer(),
        concurrency: 2,
        split,
      });
  return measureHarnesses({
    evaluate: evaluateWith,
    tasks: { train: numberedTasks(4), heldout: numberedTasks(3) },
    seed,
    final,
    samples: { seed: 1, final: 1 },
  });
}

describe("measureHarnesses", () => {
  it("measures the seed and final harness on both splits", async () => {
    const measured = await measureWith(new EchoAgent());
    expect(measured.map((each) => [each.result.n, each.result.accuracy])).toEqual([
      [4, 1],
      [3, 1],
      [4, 1],
      [3, 1],
    ]);
  });

  it("fails, naming the first crash and the fix, when the agent crashed in every rollout", async () => {
    // A measure shard on a runner where the agent cannot start measured 0% and the finish
    // reported it with exit 0.
    const failure = await measureWith(crashingAgent).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AgentUnusableError);
    const message = (failure as Error).message;
    expect(message).toContain("nothing was measured");
    expect(message).toContain("crashed in every one of 14 rollouts (14 process-error)");
    expect(message).toContain("First, task q0: process-error: exit 127: python3: not found");
    expect(message).toContain("ecdysis eval --limit 1");
  });

  it("fails when the agent printed an empty output and no model turn in every rollout", async () => {
    // A command harness whose JSON carries "output": "" everywhere: measured 0%, exit 0.
    const silentAgent: AgentAdapter = {
      async run() {
        return { ...(await crashingAgent.run({} as never)), events: [] };
      },
    };
    const failure = await measureWith(silentAgent).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AgentUnusableError);
    expect((failure as Error).message).toMatch(
      /nothing was measured: the agent printed an empty output in every one of 14 rollouts/,
    );
  });

  it("measures a final harness that crashes everywhere beside a seed that runs: the scores say it", async () => {
    const measured = await measureWith(new EchoAgent(), crashingAgent);
    expect(measured.map((each) => each.result.accuracy)).toEqual([1, 1, 0, 0]);
  });
});
