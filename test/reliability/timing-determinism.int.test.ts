import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { openModels } from "../../src/eval/open-models.js";
import { createRng } from "../../src/evolve/rng.js";
import type { Models } from "../../src/evolve/run-context.js";
import { runEvolve } from "../../src/evolve/run-evolve.js";
import type { ChatProvider } from "../../src/llm/types.js";
import { serveSimModel } from "../../src/sim/index.js";
import { comparable, quickstartProject } from "./project.js";

// Same seed → same result.json, whatever the latency: a run is decided by its inputs, not by
// which call or rollout happens to finish first. Each run gets a fresh project (no shared
// cache) and its own timing: no latency, the world's latency, and a random delay per call
// (seeded differently per run) that reorders concurrent calls, background stages and the
// evaluations a budget limit cuts short.

/** Delays every call by 0–`maxMs` ms, drawn from `seed`: other completion orders. */
function jittered(provider: ChatProvider, seed: number, maxMs: number): ChatProvider {
  const rng = createRng(seed);
  return {
    ...provider,
    chat: async (request, options) => {
      await new Promise((resolve) => setTimeout(resolve, Math.floor(rng.next() * maxMs)));
      return provider.chat(request, options);
    },
  };
}

async function runWith(timing: { latencyScale: number; jitter?: number; budget?: string }) {
  const dir = await quickstartProject();
  if (timing.budget) await appendFile(join(dir, "ecdysis.yml"), timing.budget);
  const loaded = await loadConfig(join(dir, "ecdysis.yml"));
  const opened = await openModels(loaded, {
    latencyScale: timing.latencyScale,
    simServer: serveSimModel,
  });
  const jitter = timing.jitter;
  const models: Models =
    jitter === undefined
      ? opened
      : {
          ...opened,
          agent: jittered(opened.agent, jitter, 12),
          refiner: jittered(opened.refiner, jitter + 1, 40),
        };
  try {
    return comparable(await runEvolve({ loaded, outDir: join(dir, "out"), models }));
  } finally {
    await opened.close();
  }
}

/**
 * A result without the agent's spend (calls and tokens, total and training) — the one thing
 * timing may change under a limit — and that spend's call count.
 */
function withoutAbortedCalls(result: unknown): { rest: unknown; llmCalls: number } {
  const { cost, ...other } = result as {
    cost: { llmCalls: number; rollouts: number; refinement: unknown };
  };
  const rest = { ...other, rollouts: cost.rollouts, refinement: cost.refinement };
  return { rest, llmCalls: cost.llmCalls };
}

describe("determinism independent of timing", () => {
  it("the quickstart: the same result.json with no latency, the world's latency and two random call delays", async () => {
    const runs = [
      await runWith({ latencyScale: 0 }),
      await runWith({ latencyScale: 0.05 }),
      await runWith({ latencyScale: 0, jitter: 1 }),
      await runWith({ latencyScale: 0, jitter: 7 }),
    ];
    expect((runs[0] as { acceptedEdits: unknown[] }).acceptedEdits.length).toBeGreaterThan(0);
    for (const run of runs.slice(1)) expect(run).toEqual(runs[0]);
  }, 300_000);

  it("a rollout budget that cuts the search short: the same stop, the same result, whatever the timing", async () => {
    const budget = "evolve:\n  budget:\n    rollouts: 100\n";
    const runs = [
      await runWith({ latencyScale: 0, budget }),
      await runWith({ latencyScale: 0, jitter: 3, budget }),
      await runWith({ latencyScale: 0, jitter: 11, budget }),
    ];
    expect((runs[0] as { stoppedBy: string }).stoppedBy).toBe("budget:rollouts");
    // The one thing timing may change: the agent calls (and their tokens) already made by
    // rollouts still in flight when the limit aborted them — those rollouts are discarded, never
    // scored. Every other figure (rollouts, refiner spend, accuracies, edits, the stop) is the same.
    const [first, ...others] = runs.map(withoutAbortedCalls);
    for (const run of others) expect(run.rest).toEqual(first?.rest);
    const calls = runs.map((run) => withoutAbortedCalls(run).llmCalls);
    expect(Math.max(...calls) - Math.min(...calls)).toBeLessThanOrEqual(8 * 4);
  }, 300_000);

  it("the iterative baseline under a budget: the same result whatever the timing", async () => {
    const budget = "evolve:\n  strategy: iterative\n  budget:\n    rollouts: 200\n";
    const runs = [
      await runWith({ latencyScale: 0, budget }),
      await runWith({ latencyScale: 0, jitter: 5, budget }),
    ];
    for (const run of runs.slice(1)) expect(run).toEqual(runs[0]);
  }, 300_000);
});
