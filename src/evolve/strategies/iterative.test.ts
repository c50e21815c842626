import { describe, expect, it } from "vitest";
import { harnessModules } from "../../config/harness-schema.js";
import { runEvolve } from "../run-evolve.js";
import type { StagePort } from "../stage-port.js";
import { fakeStages, ruleEdit } from "../testing/fake-stages.js";
import {
  fakeAgentAdapter,
  fakeAgentModel,
  fakeProject,
  fakeRefinerModel,
  specs,
} from "../testing/fake-world.js";
import { iterativeStrategy } from "./iterative.js";

const train = [
  ...specs({ prefix: "c", count: 3, fault: "calc", categories: ["a"] }),
  ...specs({ prefix: "d", count: 2, fault: "date", categories: ["a"] }),
  ...specs({ prefix: "n", count: 2, categories: ["z"] }),
];

async function runIterative(
  options: {
    evolve?: Record<string, unknown>;
    iterative?: Record<string, unknown>;
    stages?: (port: StagePort) => StagePort;
  } = {},
) {
  const loaded = await fakeProject({
    train,
    heldout: specs({ prefix: "h", count: 2, fault: "calc" }),
    evolve: { ...options.evolve, iterative: { components: "all", ...options.iterative } },
  });
  const fake = fakeStages();
  const result = await runEvolve({
    loaded,
    strategy: iterativeStrategy(),
    outDir: `${loaded.root}/out`,
    models: { agent: fakeAgentModel({ breaks: { "fix:date": "z" } }), refiner: fakeRefinerModel() },
    stages: options.stages ? options.stages(fake.stages) : fake.stages,
    adapter: fakeAgentAdapter,
    clock: { now: () => 0 },
  });
  return { result, calls: fake.calls };
}

/** A reflector whose first `count` proposals (or every one) add a rule that fixes nothing. */
function useless(count = Number.POSITIVE_INFINITY) {
  let calls = 0;
  return (port: StagePort): StagePort => ({
    ...port,
    async reflect(request) {
      const record = await port.reflect(request);
      calls += 1;
      if (calls > count) return record;
      return { ...record, edits: [ruleEdit(`nothing-${calls}`, [])] };
    },
  });
}

describe("iterative strategy (GEPA's defaults)", () => {
  it("has no patience by default: like GEPA it searches until maxIterations (or the budget) is spent", async () => {
    const { result } = await runIterative({ evolve: { maxIterations: 7 }, stages: useless() });
    expect(result.stoppedBy).toBe("max-iterations");
    expect(result.iterations).toHaveLength(7);
    const budgeted = await runIterative({
      evolve: { maxIterations: 500, budget: { rollouts: 40 } },
      stages: useless(),
    });
    expect(budgeted.result.stoppedBy).toBe("budget:rollouts");
  });

  it("stops after evolve.iterative.patience proposals without a new best when it is set", async () => {
    const { result } = await runIterative({
      evolve: { maxIterations: 12 },
      iterative: { patience: 2 },
      stages: useless(),
    });
    expect(result.stoppedBy).toBe("patience");
    expect(result.iterations.slice(-2).map((iteration) => iteration.verdict)).toEqual([
      "rejected",
      "rejected",
    ]);
  });

  it("reflects on a minibatch of 3 the parent fails on, scores the child there first, and evaluates the full split only when it is strictly better there", async () => {
    const { result, calls } = await runIterative({ evolve: { maxIterations: 8 } });
    // Minibatches the parent passes entirely are skipped: every reflection sees a failure.
    expect(calls.reflect.length).toBeGreaterThan(0);
    for (const call of calls.reflect) expect(call.failures.length).toBeGreaterThan(0);
    let full = 0;
    for (const iteration of result.iterations) {
      expect(iteration.traces.length).toBeLessThanOrEqual(3);
      const cheap = iteration.validation.find((stage) => stage.step === "minibatch");
      if (!cheap) continue;
      expect(cheap.role).toBe("screen");
      expect(cheap.comparison?.n).toBeLessThanOrEqual(3);
      const fullStage = iteration.validation.find((stage) => stage.step === "train split");
      expect(Boolean(fullStage)).toBe(cheap.decision.accepted);
      if (fullStage) {
        full += 1;
        expect(fullStage.role).toBe("verdict");
        expect(fullStage.comparison?.n).toBe(7);
      }
    }
    expect(full).toBeGreaterThan(0);
    // The calc fix helps every calc task and breaks nothing: it is found and kept.
    expect(result.acceptedEdits.map((edit) => edit.edit)).toContainEqual({
      kind: "add_rule",
      text: "fix:calc",
    });
    expect(result.final.train.accuracy).toBeGreaterThan(result.baseline.train.accuracy);
  });

  it("reflects once per proposal on the whole minibatch, passing runs included, warm and with a seed of its own per call, the same on a re-run", async () => {
    const first = await runIterative({ evolve: { maxIterations: 6 }, stages: useless() });
    expect(first.calls.reflect.length).toBeGreaterThan(2);
    for (const call of first.calls.reflect) {
      expect(call.sampling?.temperature).toBe(1);
      expect(new Set(call.records.map((record) => record.taskId)).size).toBeGreaterThan(0);
    }
    // Successes are part of GEPA's reflective dataset: some minibatch shows a passing run.
    expect(
      first.calls.reflect.some((call) => call.records.some((record) => record.verdict.pass)),
    ).toBe(true);
    const seeds = first.calls.reflect.map((call) => call.sampling?.seed);
    expect(new Set(seeds).size).toBe(seeds.length);
    const again = await runIterative({ evolve: { maxIterations: 6 }, stages: useless() });
    expect(again.calls.reflect.map((call) => call.sampling?.seed)).toEqual(seeds);
    const cold = await runIterative({
      evolve: { maxIterations: 2 },
      iterative: { reflectionTemperature: 0 },
      stages: useless(),
    });
    expect(cold.calls.reflect[0].sampling?.temperature).toBe(0);
  });

  it("a fully evaluated child that is not the best still joins the pool and is drawn as a parent; the harness in force stays the best", async () => {
    // A reflector that only ever proposes the date rule: it fixes the date tasks and breaks the
    // two of category z, so on the full split it is no better than the seed — but it leads on
    // the date tasks, so Pareto selection draws it as a parent.
    const dateOnly = (port: StagePort): StagePort => ({
      ...port,
      async reflect(request) {
        const record = await port.reflect(request);
        return { ...record, edits: [ruleEdit("date", [])] };
      },
    });
    const { result } = await runIterative({ evolve: { maxIterations: 12 }, stages: dateOnly });
    const pooled = result.iterations.filter(
      (iteration) =>
        iteration.verdict === "rejected" &&
        iteration.validation.some((stage) => stage.step === "train split"),
    );
    expect(pooled.length).toBeGreaterThan(0);
    for (const iteration of pooled)
      expect(iteration.reason).toMatch(/kept in the Pareto pool as a parent/);
    const pooledHashes = new Set(pooled.map((iteration) => iteration.candidateHash));
    expect(result.iterations.some((iteration) => pooledHashes.has(iteration.parentHash))).toBe(
      true,
    );
    expect(result.iterations.some((iteration) => iteration.verdict === "accepted")).toBe(false);
    expect(result.harness.finalHash).toBe(result.harness.seedHash);
  });

  it("round-robin: reflections on one parent ask for the modules in turn; edits to other modules are left out", async () => {
    // A reflector that always edits the prompt, whatever module it is asked to change.
    const promptOnly = (port: StagePort): StagePort => ({
      ...port,
      async reflect(request) {
        const record = await port.reflect(request);
        return { ...record, edits: record.edits.map((edit) => ({ ...edit, module: "prompt" })) };
      },
    });
    const { result, calls } = await runIterative({
      evolve: { maxIterations: 8 },
      iterative: { components: "round-robin" },
      stages: promptOnly,
    });
    const seedHash = result.harness.seedHash;
    const onSeed = calls.reflect.filter((call) => call.harnessHash === seedHash);
    expect(onSeed.slice(0, 6).map((call) => call.module)).toEqual(
      harnessModules.slice(0, Math.min(6, onSeed.length)),
    );
    const refused = result.iterations.filter((iteration) =>
      /changes another module than (agent_loop|tools|observation|context|completion)/.test(
        iteration.reason,
      ),
    );
    expect(refused.length).toBeGreaterThan(0);
    for (const iteration of refused) expect(iteration.validation).toEqual([]);
  });

  it("remembers a rejection on the harness it was made on: a new parent starts with none", async () => {
    const { result, calls } = await runIterative({
      evolve: { maxIterations: 6 },
      stages: useless(2),
    });
    const seedHash = result.harness.seedHash;
    expect(calls.reflect.slice(0, 3).map((call) => call.rejected.length)).toEqual([0, 1, 2]);
    expect(calls.reflect.slice(0, 3).every((call) => call.harnessHash === seedHash)).toBe(true);
    const onChild = calls.reflect.find((call) => call.harnessHash !== seedHash);
    expect(onChild?.rejected).toEqual([]);
  });

  it("stops when two epochs of minibatches gave nothing new to evaluate (repeats are free with the cache)", async () => {
    // A reflector that proposes the same useless rule every time: the first child is new, every
    // later one repeats it, and nothing else is ever proposed.
    const same = (port: StagePort): StagePort => ({
      ...port,
      async reflect(request) {
        const record = await port.reflect(request);
        return { ...record, edits: [ruleEdit("nothing", [])] };
      },
    });
    const { result } = await runIterative({ evolve: { maxIterations: 100 }, stages: same });
    expect(result.stoppedBy).toBe("attempts-exhausted");
    // 7 train tasks: 3 minibatches per epoch, so 1 new proposal and then 6 stale ones.
    expect(result.iterations).toHaveLength(7);
  });
});
