import { describe, expect, it } from "vitest";
import { ecdysisConfigSchema } from "../../config/config-schema.js";
import { runEvolve } from "../run-evolve.js";
import { fakeStages } from "../testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "../testing/fake-world.js";
import { samplingStrategy, samplingVotes } from "./sampling.js";

function config(evolve: Record<string, unknown>) {
  return ecdysisConfigSchema.parse({
    model: { provider: "sim", world: "w", model: "m" },
    harness: {},
    tasks: { train: "t", heldout: "h" },
    evolve,
  });
}

describe("sampling strategy", () => {
  it("spends the rollout budget as an odd number of votes per task", () => {
    expect(
      samplingVotes({
        config: config({ budget: { rollouts: 100 } }),
        trainSize: 10,
        heldoutSize: 10,
      }),
    ).toBe(5);
    expect(
      samplingVotes({
        config: config({ budget: { rollouts: 80 } }),
        trainSize: 10,
        heldoutSize: 10,
      }),
    ).toBe(3);
    expect(
      samplingVotes({
        config: config({ budget: { rollouts: 5 } }),
        trainSize: 10,
        heldoutSize: 10,
      }),
    ).toBe(1);
    expect(
      samplingVotes({ config: config({ maxIterations: 4 }), trainSize: 10, heldoutSize: 10 }),
    ).toBe(9);
  });

  it("does not evolve: final is the seed harness evaluated with K samples", async () => {
    const loaded = await fakeProject({
      train: specs({ prefix: "c", count: 4, fault: "calc" }),
      heldout: specs({ prefix: "h", count: 2 }),
      evolve: { budget: { rollouts: 18 } },
    });
    const { stages, calls } = fakeStages();
    const agent = fakeAgentModel();
    const result = await runEvolve({
      loaded,
      strategy: samplingStrategy(),
      outDir: `${loaded.root}/out`,
      models: { agent, refiner: fakeRefinerModel() },
      stages,
      adapter: fakeAgentAdapter,
      clock: { now: () => 0 },
    });
    expect(result.stoppedBy).toBe("no-evolution");
    expect(result.iterations).toEqual([]);
    expect(result.harness.finalHash).toBe(result.harness.seedHash);
    expect(calls.diagnose).toHaveLength(0);
    // K = 3: seed (1 sample) + final (3 samples, sample 0 cached) on 6 tasks = 6 + 12 rollouts.
    expect(result.cost.rollouts).toBe(18);
    expect(new Set(agent.calls.map((call) => call.seed))).toEqual(new Set([0, 1, 2]));
  });
});
