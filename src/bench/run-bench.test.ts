import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
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
  return new FakeBenchEngine(worlds, ({ world: name, seed, strategy }) => {
    if (strategy === "ecdysis") {
      return {
        elapsedMs: 1100,
        outcome: fakeOutcome({
          trainingWallMs: 1000,
          heldout: name === "neutral" ? 0.6 : 0.8,
          rollouts: 100,
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
        outcome: fakeOutcome({
          trainingWallMs: name === "neutral" ? 1200 : 2000 + seed * 1000,
          heldout: 0.7,
          rollouts: 300,
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
    return { elapsedMs: 700, outcome: fakeOutcome({ heldout: 0.55, trainingWallMs: 500 }) };
  });
}

describe("runBench", () => {
  it("runs every strategy on every world and seed, one at a time, with shared settings", async () => {
    const fake = engine();
    const outDir = await mkdtemp(path.join(os.tmpdir(), "bench-"));
    const result = await runBench({
      engine: fake,
      clock: fake.clock,
      machine,
      date: new Date("2026-01-02T03:04:05Z"),
      seeds: "1,2",
      strategies: "ecdysis,iterative,sampling",
      budgetRollouts: 321,
      latencyScale: 0.25,
      concurrency: 4,
      maxIterations: 7,
      outDir,
    });
    const runCalls = fake.calls.filter((call) => call.method === "runStrategy");
    expect(runCalls.map((call) => `${call.world}/${call.seed}/${call.strategy}`)).toEqual([
      "mostly-systematic/1/ecdysis",
      "mostly-systematic/1/iterative",
      "mostly-systematic/1/sampling",
      "mostly-systematic/2/ecdysis",
      "mostly-systematic/2/iterative",
      "mostly-systematic/2/sampling",
      "neutral/1/ecdysis",
      "neutral/1/iterative",
      "neutral/1/sampling",
      "neutral/2/ecdysis",
      "neutral/2/iterative",
      "neutral/2/sampling",
    ]);
    expect(new Set(runCalls.map((call) => JSON.stringify({ ...call.settings, seed: 0 })))).toEqual(
      new Set([
        JSON.stringify({
          seed: 0,
          budgetRollouts: 321,
          latencyScale: 0.25,
          concurrency: 4,
          maxIterations: 7,
        }),
      ]),
    );
    expect(fake.maxConcurrentRuns).toBe(1);
    expect(fake.calls.filter((call) => call.method === "prepareProject")).toHaveLength(4);

    const iterative = result.runs.find(
      (run) => run.strategy === "iterative" && run.world === "mostly-systematic" && run.seed === 2,
    );
    expect(iterative).toMatchObject({
      wallMs: 4000,
      rollouts: 300,
      acceptedEdits: 1,
      accommodations: 1,
    });
    expect(iterative?.accommodationReasons[0]).toMatch(/leaked-answer/);
    const ecdysis = result.runs.find(
      (run) => run.strategy === "ecdysis" && run.world === "mostly-systematic",
    );
    expect(ecdysis).toMatchObject({ accommodations: 0, patternPurity: 1, patternsFound: 1 });
    expect(result.ratiosByWorld["mostly-systematic"].wallTimeIterativeOverEcdysis).toBe(3.5);
    expect(result.ratiosByWorld.neutral.wallTimeIterativeOverEcdysis).toBeCloseTo(1.2);
    expect(result.ratios.rolloutsIterativeOverEcdysis).toBe(3);
    // Time-to-match: iterative reached its best (70%) at 1.6 s / 0.6 s, Ecdysis passed it at 0.4 s.
    expect(result.timeToMatch.map((pair) => pair.ratio)).toEqual([4, 4, 1.5, 1.5]);
    expect(result.ratiosByWorld["mostly-systematic"].timeToMatchIterativeOverEcdysis).toBe(4);
    expect(result.ratios).toMatchObject({
      timeToMatchIterativeOverEcdysis: 2.75,
      timeToMatchPairs: 4,
      timeToMatchFailures: 0,
    });
    expect(ecdysis?.trajectory).toHaveLength(1);
    expect(ecdysis?.ineffectiveEdits).toBe(0);

    const written = benchResultSchema.parse(
      JSON.parse(await readFile(path.join(outDir, "bench.json"), "utf8")),
    );
    expect(written).toEqual(result);
    const markdown = await readFile(path.join(outDir, "bench.md"), "utf8");
    if (process.env.SHOW_BENCH) console.log(markdown);
    expect(markdown).toContain("```mermaid");
    expect(markdown).toContain("test cpu (4 cores");
    expect(markdown).toMatch(
      /\*\*neutral\*\* — time-to-match iterative \/ Ecdysis ≥ 1\.84×: measured 1\.50×.*neutral/,
    );
    expect(markdown).toMatch(
      /\*\*neutral\*\* — total training wall time iterative \/ Ecdysis ≥ 1\.84× \(shown, not the claim\): measured 1\.20×/,
    );
    expect(markdown).not.toMatch(/\*\*mostly-systematic\*\* — /);
    expect(markdown).toContain(
      "| mostly-systematic | 1 | 70.0% | 1.60 s | 0.40 s | 4.00× | 3.00× |",
    );
    expect(markdown).toContain('"accuracyAtOne":0.4');
    expect(markdown).toContain("*Time-to-match* (the speed claim)");

    const section = renderReadmeSection(result);
    expect(section).toMatch(
      /best train accuracy\n2\.75× faster than the baseline did \(4 pair\(s\), 0 where it never did/,
    );
    expect(section).toContain(
      "Total training wall time iterative / Ecdysis: 2.10×; rollouts 3.00×.",
    );
    expect(section).toContain("*Total training time* is the whole search");
  });

  it("runs the bundled worlds when none are named, and rejects unknown strategies", async () => {
    const fake = engine();
    const outDir = await mkdtemp(path.join(os.tmpdir(), "bench-"));
    const result = await runBench({
      engine: fake,
      clock: fake.clock,
      machine,
      seeds: [1],
      strategies: ["sampling"],
      outDir,
    });
    expect(result.worlds.map((entry) => entry.name)).toEqual(["mostly-systematic", "neutral"]);
    expect(result.ratios.wallTimeIterativeOverEcdysis).toBeNull();
    await expect(runBench({ engine: fake, strategies: "ecdysis,greedy", outDir })).rejects.toThrow(
      /greedy|strategies/,
    );
  });
});
