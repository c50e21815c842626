import { describe, expect, it } from "vitest";
import { firstStage } from "../evidence.js";
import { runEvolve } from "../run-evolve.js";
import { fakeStages } from "../testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "../testing/fake-world.js";
import { iterativeStrategy } from "./iterative.js";

async function runIterative(options: { evolve: Record<string, unknown>; patience?: number }) {
  const loaded = await fakeProject({
    train: [
      ...specs({ prefix: "c", count: 3, fault: "calc", categories: ["a"] }),
      ...specs({ prefix: "d", count: 2, fault: "date", categories: ["a"] }),
      ...specs({ prefix: "n", count: 2, categories: ["z"] }),
    ],
    heldout: specs({ prefix: "h", count: 2, fault: "calc" }),
    evolve: { iterativeMinibatch: 1, ...options.evolve },
  });
  return runEvolve({
    loaded,
    strategy: iterativeStrategy({ patience: options.patience }),
    outDir: `${loaded.root}/out`,
    models: { agent: fakeAgentModel({ breaks: { "fix:date": "z" } }), refiner: fakeRefinerModel() },
    stages: fakeStages().stages,
    adapter: fakeAgentAdapter,
    clock: { now: () => 0 },
  });
}

describe("iterative strategy", () => {
  it("has no patience by default: like GEPA it searches until maxIterations (or the budget) is spent", async () => {
    const result = await runIterative({ evolve: { maxIterations: 7 } });
    expect(result.stoppedBy).toBe("max-iterations");
    expect(result.iterations).toHaveLength(7);
  });

  it("stops after evolve.patience proposals without improvement when it is set", async () => {
    const result = await runIterative({ evolve: { maxIterations: 7, patience: 2 } });
    expect(result.stoppedBy).toBe("patience");
    expect(result.iterations.slice(-2).map((iteration) => iteration.verdict)).toEqual([
      "rejected",
      "rejected",
    ]);
    expect(result.iterations.length).toBeLessThan(7);
  });

  it("keeps a candidate only when full-train accuracy is strictly higher", async () => {
    const loaded = await fakeProject({
      train: [
        ...specs({ prefix: "c", count: 3, fault: "calc", categories: ["a"] }),
        ...specs({ prefix: "d", count: 2, fault: "date", categories: ["a"] }),
        ...specs({ prefix: "n", count: 2, categories: ["z"] }),
      ],
      heldout: specs({ prefix: "h", count: 2, fault: "calc" }),
      evolve: { maxIterations: 6, iterativeMinibatch: 1 },
    });
    const { stages, calls } = fakeStages();
    // The date fix breaks the two tasks of category z: +2 −2, no strict improvement.
    const models = {
      agent: fakeAgentModel({ breaks: { "fix:date": "z" } }),
      refiner: fakeRefinerModel(),
    };
    const result = await runEvolve({
      loaded,
      strategy: iterativeStrategy({ patience: 3 }),
      outDir: `${loaded.root}/out`,
      models,
      stages,
      adapter: fakeAgentAdapter,
      clock: { now: () => 0 },
    });
    expect(calls.reflect.every((call) => call.failures.length === 1)).toBe(true);
    for (const iteration of result.iterations) {
      const improved =
        (firstStage(iteration.evidence, "full")?.score.accuracy ?? -1) >
        iteration.batch.score.accuracy;
      expect(iteration.verdict === "accepted").toBe(improved);
    }
    const dateProposals = result.iterations.filter((iteration) =>
      iteration.applied.some(
        (edit) => edit.edit.kind === "add_rule" && edit.edit.text === "fix:date",
      ),
    );
    expect(dateProposals.length).toBeGreaterThan(0);
    expect(dateProposals.every((iteration) => iteration.verdict === "rejected")).toBe(true);
    expect(result.acceptedEdits.map((edit) => edit.edit)).toEqual([
      { kind: "add_rule", text: "fix:calc" },
    ]);
    expect(result.stoppedBy).toBe("patience");
    expect(result.iterations.slice(-3).map((iteration) => iteration.verdict)).toEqual([
      "rejected",
      "rejected",
      "rejected",
    ]);
    // Every proposal is followed by a full re-evaluation of the train split.
    expect(
      result.iterations.every(
        (iteration) => firstStage(iteration.evidence, "full")?.comparison.n === 7,
      ),
    ).toBe(true);
  });
});
