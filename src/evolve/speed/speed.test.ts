import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { EvolveResult } from "../result-schema.js";
import { runEvolve } from "../run-evolve.js";
import { ecdysisStrategy } from "../strategies/ecdysis.js";
import { fakeStages, ruleEdit } from "../testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "../testing/fake-world.js";

type Scenario = {
  train: ReturnType<typeof specs>;
  heldout: ReturnType<typeof specs>;
  evolve?: Record<string, unknown>;
  supported?: NonNullable<Parameters<typeof fakeStages>[0]>["supported"];
  propose?: NonNullable<Parameters<typeof fakeStages>[0]>["propose"];
  /** A sampling agent (above temperature 0, its wording varies by draw). */
  sampling?: boolean;
};

async function run(scenario: Scenario, speedups: boolean) {
  const loaded = await fakeProject({ ...scenario, temperature: scenario.sampling ? 0.7 : 0 });
  const { stages, calls } = fakeStages({
    supported: scenario.supported,
    propose: scenario.propose,
  });
  const outDir = path.join(loaded.root, "out");
  const result = await runEvolve({
    loaded,
    strategy: ecdysisStrategy(),
    outDir,
    models: {
      agent: fakeAgentModel({ variedWording: scenario.sampling }),
      refiner: fakeRefinerModel(),
    },
    stages,
    adapter: fakeAgentAdapter,
    clock: { now: () => 0 },
    speedups,
  });
  const stagesRun = (await readFile(path.join(outDir, "journal.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .slice(1)
    .map((line) => (JSON.parse(line) as { stage: string }).stage);
  return { result, calls, stagesRun };
}

/** The result without what the speed tricks change: the spend and the times. */
function outcome(result: EvolveResult): unknown {
  const skipped = new Set(["cost", "elapsedMs", "wallMs", "run"]);
  return JSON.parse(JSON.stringify(result, (key, value) => (skipped.has(key) ? undefined : value)));
}

const scenarios: Record<string, Scenario> = {
  // Notes streamed, and the next diagnosis prepared while too few flips are re-drawn.
  "re-drawn flips": {
    train: [
      ...specs({ prefix: "c", count: 3, fault: "calc" }),
      ...specs({ prefix: "q", count: 1, fault: "quirk" }),
      ...specs({ prefix: "n", count: 4 }),
    ],
    heldout: specs({ prefix: "h", count: 2, fault: "calc" }),
    evolve: { ecdysis: { alpha: 0.1, confirmSamples: 2, targetedTest: false } },
    // Re-drawn only above temperature 0, and counted only where the draws differ.
    sampling: true,
  },
  // The refinement started ahead, and wasted: classification drops a supported pattern.
  "a dropped pattern": {
    train: [
      ...specs({ prefix: "c", count: 8, fault: "calc" }),
      ...specs({ prefix: "n", count: 8 }),
    ],
    heldout: specs({ prefix: "h", count: 4, fault: "calc" }),
    supported: (systematic) => [...systematic, { ...systematic[0], id: "p-flaky", name: "flaky" }],
  },
};

/** The change proposed for date fixes none of its tasks: pruning takes it out. */
const uselessForDate: Scenario = {
  train: [
    ...specs({ prefix: "c", count: 4, fault: "calc" }),
    ...specs({ prefix: "d", count: 4, fault: "date" }),
    ...specs({ prefix: "n", count: 6 }),
  ],
  heldout: specs({ prefix: "h", count: 4, fault: "calc" }),
  propose: (patterns) =>
    patterns.map((pattern) => ruleEdit(pattern.name === "calc" ? "calc" : "useless", [pattern.id])),
};

describe("the speed tricks", () => {
  for (const [name, scenario] of Object.entries(scenarios)) {
    it(`only start work early: without them the same result (${name})`, async () => {
      const fast = await run(scenario, true);
      const plain = await run(scenario, false);
      expect(fast.result.iterations[0].verdict).toBe("accepted");
      expect(outcome(plain.result)).toEqual(outcome(fast.result));
      expect(plain.stagesRun.filter((stage) => /-(ahead|prefetch-diagnosis)$/.test(stage))).toEqual(
        [],
      );
      expect(fast.stagesRun.some((stage) => /-(ahead|prefetch-diagnosis)$/.test(stage))).toBe(true);
      // Work started early is either reused through the call cache or spent on top.
      expect(fast.result.cost.llmCalls).toBeGreaterThanOrEqual(plain.result.cost.llmCalls);
    });
  }

  // Issue #27 (speed): the rest of the batch ran ahead for a candidate that attribution was
  // already about to prune; the pruned candidate then ran its own, and those rollouts were lost.
  it("runs no rest ahead for a candidate that pruning will replace, with the same result", async () => {
    const fast = await run(uselessForDate, true);
    const plain = await run(uselessForDate, false);
    expect(fast.stagesRun).toContain("iteration-1/validate-cheap-pruned");
    expect(fast.stagesRun).not.toContain("iteration-1/validate-full-ahead");
    expect(outcome(plain.result)).toEqual(outcome(fast.result));
    expect(fast.result.cost.rollouts).toBe(plain.result.cost.rollouts);
  });

  // A narrow rider is selected from the patterns the support test sorted, before the re-samples,
  // so the refinement started ahead is the one the proposal takes (none is run twice).
  it("takes the refinement started ahead when a narrow pattern rides along", async () => {
    const withRider: Scenario = {
      train: [
        ...specs({ prefix: "c", count: 4, fault: "calc" }),
        ...specs({ prefix: "s", count: 2, fault: "steps" }),
        ...specs({ prefix: "n", count: 6 }),
      ],
      heldout: specs({ prefix: "h", count: 2, fault: "calc" }),
      evolve: { budget: { rollouts: 200 }, maxIterations: 1 },
    };
    const fast = await run(withRider, true);
    const plain = await run(withRider, false);
    expect(fast.stagesRun).toContain("iteration-1/refine-ahead");
    expect(fast.calls.refine.map((call) => call.patterns.map((pattern) => pattern.name))).toEqual([
      ["calc", "steps"],
    ]);
    expect(outcome(plain.result)).toEqual(outcome(fast.result));
  });

  it("each scenario exercises the trick it is there for", async () => {
    const redrawn = await run(scenarios["re-drawn flips"], true);
    expect(redrawn.stagesRun).toContain("iteration-1/validate-full-prefetch-diagnosis");
    const dropped = await run(scenarios["a dropped pattern"], true);
    expect(dropped.stagesRun).toContain("iteration-1/refine-ahead");
    // The rest of the batch ran during pruning; the full batch found it in the rollout cache.
    const full = dropped.stagesRun.indexOf("iteration-1/validate-full");
    expect(dropped.stagesRun.indexOf("iteration-1/validate-full-ahead")).toBeGreaterThan(-1);
    expect(dropped.stagesRun.indexOf("iteration-1/validate-full-ahead")).toBeLessThan(full);
    expect(dropped.calls.refine.map((call) => call.patterns.map((pattern) => pattern.id))).toEqual([
      ["p-calc", "p-flaky"],
      ["p-calc"],
    ]);
  });
});
