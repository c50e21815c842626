import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findComparison } from "./comparisons.js";
import { renderReadmeSection } from "./readme-section.js";
import { runBench } from "./run-bench.js";
import { FakeBenchEngine, type FakeWorld, fakeOutcome } from "./testing/fake-bench-engine.js";
import { type BenchWorld, benchResultSchema } from "./types.js";

function world(name: string, neutral = false): BenchWorld {
  return {
    name,
    source: name,
    parameters: { families: 2 },
    refinerAssumptions: { accuracyAtOne: neutral ? 0.95 : 0.4, neutral },
    neutralRefiner: neutral,
  };
}

const worlds: FakeWorld[] = [
  {
    world: world("mostly-systematic"),
    truth: [
      {
        taskId: "t1",
        keyPhrase: "Ada Quill",
        expected: "Lisbon",
        deficiencies: [{ kind: "item-slip", systematic: false }],
      },
      { taskId: "t2", deficiencies: [{ kind: "step-budget", systematic: true }] },
    ],
  },
  { world: world("neutral", true), truth: [{ taskId: "t1", deficiencies: [] }] },
];

const machine = { cpu: "test cpu", cores: 4, node: "v20.0.0", platform: "linux x64", memoryGb: 8 };

function engine() {
  return new FakeBenchEngine(worlds, ({ world: name, seed, strategy, budgetRollouts }) => {
    if (strategy === "ecdysis" || strategy === "ecdysis-serial") {
      const slow = strategy === "ecdysis-serial" ? 2 : 1;
      return {
        elapsedMs: 1100 * slow,
        probe: [
          [0, 0.5],
          [400 * slow, 0.8],
        ],
        outcome: fakeOutcome({
          trainingWallMs: 1000 * slow,
          heldout: name === "neutral" ? 0.6 : 0.8,
          rollouts: 100,
          stoppedBy: "no-systematic-pattern",
          patterns: [{ id: "p", name: "steps", kind: "systematic", memberTaskIds: ["t2"] }],
          trajectory: [{ iteration: 1, elapsedMs: 400, accuracy: 0.8, tasks: 20 }],
          acceptedEdits: [
            {
              edit: {
                module: "agent_loop",
                patterns: ["steps"],
                rationale: "",
                edit: { kind: "set", path: "agent_loop.max_steps", value: 8 },
              },
              addressedTaskIds: ["t2"],
              fixedTaskIds: ["t2"],
            },
          ],
        }),
      };
    }
    if (strategy === "iterative") {
      return {
        elapsedMs: 5000,
        probe: [
          [0, 0.5],
          [name === "neutral" ? 600 : 1600, 0.7],
        ],
        outcome: fakeOutcome({
          trainingWallMs: name === "neutral" ? 1200 : 2000 + seed * 1000,
          heldout: 0.7,
          // Seed 2 stops early on the first world: the bench must say so.
          rollouts: name === "mostly-systematic" && seed === 2 ? 10 : budgetRollouts,
          stoppedBy: name === "mostly-systematic" && seed === 2 ? "patience" : "budget:rollouts",
          trajectory: [
            { iteration: 2, elapsedMs: name === "neutral" ? 600 : 1600, accuracy: 0.7, tasks: 20 },
          ],
          acceptedEdits: [
            {
              edit: {
                module: "prompt",
                patterns: [],
                rationale: "",
                edit: { kind: "add_rule", text: "Ada Quill lives in Lisbon." },
              },
              addressedTaskIds: ["t1"],
              fixedTaskIds: [],
            },
          ],
        }),
      };
    }
    return {
      elapsedMs: 700,
      outcome: fakeOutcome({ heldout: 0.55, trainingWallMs: 0, rollouts: 0 }),
    };
  });
}

describe("runBench", () => {
  it("runs every arm on every world, seed and budget, one at a time, with shared settings", async () => {
    const fake = engine();
    const outDir = await mkdtemp(path.join(os.tmpdir(), "bench-"));
    const result = await runBench({
      engine: fake,
      clock: fake.clock,
      machine,
      date: new Date("2026-01-02T03:04:05Z"),
      seeds: "1,2",
      strategies: "ecdysis,iterative,sampling",
      budgets: "4,2",
      latencyScale: 0.25,
      concurrency: 4,
      maxIterations: 7,
      bootstrapResamples: 200,
      outDir,
    });
    const runCalls = fake.calls.filter((call) => call.method === "runStrategy");
    expect(runCalls).toHaveLength(2 * 2 * 2 * 3);
    expect(
      runCalls
        .slice(0, 6)
        .map(
          (call) => `${call.world}/${call.seed}/${call.settings?.budgetRollouts}/${call.strategy}`,
        ),
    ).toEqual([
      "mostly-systematic/1/40/ecdysis",
      "mostly-systematic/1/40/iterative",
      "mostly-systematic/1/40/sampling",
      "mostly-systematic/1/80/ecdysis",
      "mostly-systematic/1/80/iterative",
      "mostly-systematic/1/80/sampling",
    ]);
    expect(
      new Set(
        runCalls.map((call) => JSON.stringify({ ...call.settings, seed: 0, budgetRollouts: 0 })),
      ),
    ).toEqual(
      new Set([
        JSON.stringify({
          seed: 0,
          budgetRollouts: 0,
          latencyScale: 0.25,
          concurrency: 4,
          maxIterations: 7,
          temperature: 0.7,
        }),
      ]),
    );
    expect(runCalls.every((call) => call.refiner === "world")).toBe(true);
    expect(fake.maxConcurrentRuns).toBe(1);
    expect(fake.calls.filter((call) => call.method === "prepareProject")).toHaveLength(4);
    // Sampling does no training: it is not probed. Every probe of a world × seed uses the same tasks.
    const probes = fake.calls.filter((call) => call.method === "probe");
    expect(probes).toHaveLength(2 * 2 * 2 * 2);
    expect(new Set(probes.map((call) => call.taskIds?.length))).toEqual(new Set([30]));

    const iterative = result.runs.find(
      (run) =>
        run.strategy === "iterative" &&
        run.world === "mostly-systematic" &&
        run.seed === 2 &&
        run.budgetEvals === 2,
    );
    expect(iterative).toMatchObject({
      wallMs: 4000,
      rollouts: 10,
      budgetRollouts: 40,
      unspentRollouts: 30,
      stoppedBy: "patience",
      accommodations: 1,
    });
    expect(iterative?.accommodationReasons[0]).toMatch(/leaked-answer/);
    const ecdysis = result.runs.find(
      (run) => run.strategy === "ecdysis" && run.world === "mostly-systematic",
    );
    expect(ecdysis).toMatchObject({
      accommodations: 0,
      patternPurity: 1,
      patternsFound: 1,
      refiner: "world",
    });
    expect(ecdysis?.probe?.points.map((point) => point.accuracy)).toEqual([0.5, 0.8]);

    const headline = findComparison(result.comparisons, {
      left: "ecdysis",
      right: "iterative",
      budgetEvals: 2,
    });
    // Iterative reached its best (70%) at 1.6 s (0.6 s on neutral); Ecdysis passed it at 0.4 s.
    expect(headline?.pairs.map((pair) => pair.timeToMatch?.ratio)).toEqual([4, 4, 1.5, 1.5]);
    expect(headline?.figures.timeToMatch).toMatchObject({ median: 2.75, n: 4 });
    expect(headline?.figures.timeToMatch?.low).toBeLessThanOrEqual(2.75);
    expect(headline?.figures).toMatchObject({ reverseReached: 0, reverseNotReached: 4 });
    const perWorld = findComparison(result.comparisons, {
      left: "ecdysis",
      right: "iterative",
      budgetEvals: 2,
      scope: "mostly-systematic",
    });
    expect(perWorld?.figures.timeToMatch).toEqual({ median: 4, low: 4, high: 4, n: 2 });
    expect(perWorld?.figures.wallRatio?.median).toBe(3.5);

    const written = benchResultSchema.parse(
      JSON.parse(await readFile(path.join(outDir, "bench.json"), "utf8")),
    );
    expect(written).toEqual(result);
    const markdown = await readFile(path.join(outDir, "bench.md"), "utf8");
    if (process.env.SHOW_BENCH) console.log(markdown);
    expect(markdown).toContain("test cpu (4 cores");
    expect(markdown).toContain("## What holds by construction");
    expect(markdown).toContain(
      "| 2 (40 rollouts) | mostly-systematic | iterative | budget:rollouts ×1, patience ×1 |",
    );
    expect(markdown).toMatch(
      /\*\*mostly-systematic\*\*, budget 2 — baseline spent ≥ 80% of its budget, passed every train task, or had nothing new to evaluate: no/,
    );
    expect(markdown).toMatch(
      /\*\*neutral\*\*, budget 2 — held-out time-to-match iterative \/ Ecdysis ≥ 1\.84×: no, measured 1\.50×/,
    );
    expect(markdown).toContain('"accuracyAtOne":0.4');
    expect(markdown).toContain("final held-out accuracy Ecdysis − sampling > 0 (by construction)");
    expect(markdown).not.toContain("accommodations by Ecdysis = 0 (by construction)");

    const section = renderReadmeSection(result);
    expect(section).toContain("**Budget 2 full-split evaluations.**");
    expect(section).toContain("| all worlds | 2.75× [");
    expect(section).toContain("*Held-out time-to-match* (the speed claim)");
  });

  it("adds the decomposition arms at the largest budget", async () => {
    const fake = engine();
    const outDir = await mkdtemp(path.join(os.tmpdir(), "bench-"));
    const result = await runBench({
      engine: fake,
      clock: fake.clock,
      machine,
      seeds: [1],
      strategies: "ecdysis,iterative",
      budgets: "1,3",
      decomposition: true,
      bootstrapResamples: 100,
      outDir,
    });
    const planned = fake.calls
      .filter((call) => call.method === "runStrategy" && call.settings?.budgetRollouts === 60)
      .map((call) => `${call.world}/${call.strategy}/${call.refiner}`);
    expect(planned).toEqual([
      "mostly-systematic/ecdysis/world",
      "mostly-systematic/iterative/world",
      "mostly-systematic/ecdysis-serial/world",
      "mostly-systematic/ecdysis/neutral",
      "mostly-systematic/iterative/neutral",
      // The neutral world's refiner is neutral already: no repeat.
      "neutral/ecdysis/world",
      "neutral/iterative/world",
      "neutral/ecdysis-serial/world",
    ]);
    const pipelining = findComparison(result.comparisons, {
      left: "ecdysis",
      right: "ecdysis-serial",
      budgetEvals: 3,
    });
    expect(pipelining?.figures.wallRatio?.median).toBe(2);
    expect(
      findComparison(result.comparisons, {
        left: "ecdysis",
        right: "iterative",
        budgetEvals: 3,
        refiner: "neutral",
      })?.pairs,
    ).toHaveLength(1);
    const markdown = await readFile(path.join(outDir, "bench.md"), "utf8");
    expect(markdown).toContain("## Decomposition (budget 3)");
  });

  it("with resume, reuses the runs an earlier bench finished under the same key and makes the rest", async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), "bench-"));
    const code = { version: "1.2.3", commit: "a".repeat(40), dirty: false };
    const bench = (fake: FakeBenchEngine, extra: Record<string, unknown> = {}) =>
      runBench({
        engine: fake,
        clock: fake.clock,
        machine,
        code,
        worlds: "mostly-systematic",
        strategies: "ecdysis,iterative",
        budgets: "2",
        bootstrapResamples: 200,
        outDir,
        ...extra,
      });
    const runsOf = (fake: FakeBenchEngine) =>
      fake.calls.filter((call) => call.method === "runStrategy").map((call) => call.seed);

    // Two benches of disjoint seeds in one folder, then one pass over all seeds: nothing is redone.
    const first = engine();
    await bench(first, { seeds: "1", resume: true });
    const second = engine();
    await bench(second, { seeds: "2", resume: true });
    const assembly = engine();
    const reused: boolean[] = [];
    const whole = await bench(assembly, {
      seeds: "1,2",
      resume: true,
      processes: 2,
      onRun: (_run: unknown, _index: number, _total: number, wasReused: boolean) =>
        reused.push(wasReused),
    });
    expect(runsOf(first)).toEqual([1, 1]);
    expect(runsOf(second)).toEqual([2, 2]);
    expect(runsOf(assembly)).toEqual([]);
    expect(reused).toEqual([true, true, true, true]);
    expect(whole.runs.map((run) => `${run.seed}/${run.strategy}`)).toEqual([
      "1/ecdysis",
      "1/iterative",
      "2/ecdysis",
      "2/iterative",
    ]);
    expect(whole.execution).toEqual({ code, processes: 2, reusedRuns: 4 });
    const markdown = await readFile(path.join(outDir, "bench.md"), "utf8");
    expect(markdown).toContain("in 2 bench processes side by side");
    expect(markdown).not.toContain("taken from the records");
    // One process resuming the finished bench: every run is taken from its record, and said so.
    const again = engine();
    await bench(again, { seeds: "1,2", resume: true });
    expect(runsOf(again)).toEqual([]);
    expect(await readFile(path.join(outDir, "bench.md"), "utf8")).toContain(
      "4 of 4 runs were taken from the records of an earlier bench in the same folder",
    );

    // Another setting, another commit, no --resume, or a damaged record: the run is made again.
    const warmer = engine();
    await bench(warmer, { seeds: "1", resume: true, temperature: 0.2 });
    expect(runsOf(warmer)).toEqual([1, 1]);
    const moved = engine();
    await runBench({
      engine: moved,
      clock: moved.clock,
      machine,
      code: { ...code, commit: "b".repeat(40) },
      worlds: "mostly-systematic",
      strategies: "ecdysis",
      budgets: "2",
      seeds: "2",
      resume: true,
      bootstrapResamples: 200,
      outDir,
    });
    expect(runsOf(moved)).toEqual([2]);
    const fresh = engine();
    await bench(fresh, { seeds: "2" });
    expect(runsOf(fresh)).toEqual([2, 2]);
    await writeFile(
      path.join(outDir, "runs", "mostly-systematic-seed2-b2-iterative", "bench-run.json"),
      "{ cut short",
    );
    const damaged = engine();
    await bench(damaged, { seeds: "2", resume: true });
    expect(runsOf(damaged)).toEqual([2]);
  });

  // `--jobs` on uncommitted changes made every run twice: its processes recorded them, and the
  // assembly pass could not name their code, so it made them all again, one after another.
  it("reuses runs made on uncommitted changes only under the same changes, never unnamed ones", async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), "bench-"));
    const made = async (code: {
      version: string;
      commit: string;
      dirty: boolean;
      changes?: string;
    }) => {
      const fake = engine();
      await runBench({
        engine: fake,
        clock: fake.clock,
        machine,
        code,
        worlds: "mostly-systematic",
        strategies: "ecdysis",
        budgets: "2",
        seeds: "1",
        resume: true,
        bootstrapResamples: 200,
        outDir,
      });
      return fake.calls.filter((call) => call.method === "runStrategy").length;
    };
    const dirty = { version: "1.2.3", commit: "a".repeat(40), dirty: true };
    expect(await made(dirty)).toBe(1);
    expect(await made(dirty)).toBe(1);
    expect(await made({ ...dirty, changes: "c".repeat(64) })).toBe(1);
    expect(await made({ ...dirty, changes: "c".repeat(64) })).toBe(0);
    expect(await made({ ...dirty, changes: "d".repeat(64) })).toBe(1);
    expect(await readFile(path.join(outDir, "bench.md"), "utf8")).toContain(
      "with uncommitted changes (dddddddddddd)",
    );
  });

  it("runs the bundled worlds when none are named, and rejects unknown strategies", async () => {
    const fake = engine();
    const outDir = await mkdtemp(path.join(os.tmpdir(), "bench-"));
    const result = await runBench({
      engine: fake,
      clock: fake.clock,
      machine,
      seeds: [1],
      budgets: [1],
      strategies: ["sampling"],
      outDir,
    });
    expect(result.worlds.map((entry) => entry.name)).toEqual(["mostly-systematic", "neutral"]);
    expect(result.comparisons).toEqual([]);
    await expect(runBench({ engine: fake, strategies: "ecdysis,greedy", outDir })).rejects.toThrow(
      /greedy|strategies/,
    );
  });
});
