import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinAgent } from "../agent/index.js";
import { modelConfigSchema } from "../config/config-schema.js";
import { loadTasks } from "../config/index.js";
import type { Task } from "../config/task-schema.js";
import { defaultNotesPerCall } from "../diagnose/failure-notes.js";
import { diagnoseBatch } from "../diagnose/index.js";
import { evaluate, scorerForTasks } from "../eval/index.js";
import type { RolloutRecord } from "../eval/types.js";
import { applyEdits, loadHarness } from "../harness/index.js";
import type { LoadedHarness } from "../harness/types.js";
import { type AccountedProvider, createProvider } from "../llm/index.js";
import { generateWorldFiles, loadWorld, type SimServer, startSimServer } from "../sim/index.js";
import { refine } from "./refine.js";

/**
 * The real pipeline against the real sim over HTTP: rollouts of the seed harness on the
 * quickstart world, diagnosis, refinement, guarded edits, and a re-run that must do better.
 */
describe("diagnose + refine against the sim (quickstart world)", () => {
  let server: SimServer;
  let dir: string;
  let provider: AccountedProvider;
  let tasks: Task[];
  let heldout: Task[];
  let harness: LoadedHarness;

  beforeAll(async () => {
    const world = await loadWorld("quickstart");
    server = await startSimServer({ world, latencyScale: 0 });
    dir = await mkdtemp(join(tmpdir(), "ecdysis-refine-int-"));
    const files = await generateWorldFiles({ world, outDir: dir });
    tasks = await loadTasks(files.train);
    heldout = await loadTasks(files.heldout);
    harness = await loadHarness({ dir: files.harnessDir, kind: "builtin" });
    const config = modelConfigSchema.parse({
      provider: "openai",
      baseUrl: server.url,
      model: "sim-1",
    });
    provider = createProvider({ config, baseUrl: server.url, apiKey: "test-key" });
  });
  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const run = (candidate: LoadedHarness, subset: Task[], firstSample = 0, samples = 1) =>
    evaluate({
      tasks: subset,
      harness: candidate,
      provider,
      adapter: builtinAgent(),
      scorer: scorerForTasks({ kind: "exact" }, { root: dir }),
      concurrency: 8,
      split: "train",
      firstSample,
      samples,
    });

  it("finds systematic patterns and plans guarded edits that raise train accuracy", async () => {
    const before = await run(harness, tasks);
    const failures = before.records.filter((record) => !record.verdict.pass).length;
    expect(failures).toBeGreaterThan(10);

    const resample = async (records: RolloutRecord[], k: number) => {
      const ids = new Set(records.map((record) => record.taskId));
      return (
        await run(
          harness,
          tasks.filter((task) => ids.has(task.id)),
          1,
          k,
        )
      ).records;
    };
    const report = await diagnoseBatch({
      records: before.records,
      tasks,
      refiner: provider,
      resample,
      minSupport: { tasks: 3, categories: 1 },
      stepLimit: harness.config?.agent_loop.max_steps,
      heldout,
    });
    const byPurpose = provider.totals().byPurpose;
    expect(byPurpose["failure-notes"]?.calls).toBe(Math.ceil(failures / defaultNotesPerCall));
    expect(byPurpose["pattern-merge"]?.calls).toBe(1);
    const systematic = report.patterns.filter((pattern) => pattern.kind === "systematic");
    expect(systematic.length).toBeGreaterThanOrEqual(2);
    for (const pattern of systematic) expect(pattern.support.tasks).toBeGreaterThanOrEqual(3);
    expect(report.evidence.filter((item) => item.cause === "unexplained")).toHaveLength(0);

    const record = await refine({
      patterns: report.patterns,
      harness,
      refiner: provider,
      rejected: [],
      skepticRounds: 2,
      heldout,
    });
    expect(record.outcome).toBe("accepted");
    expect(record.edits.length).toBeGreaterThan(0);
    const all = [...tasks, ...heldout];
    const applied = applyEdits({
      harness,
      edits: record.edits,
      guard: {
        editable: ["harness.yaml", "system.md", "rules.md"],
        protectedPaths: [],
        forbiddenStrings: all.map((task) => String(task.expected)),
        forbiddenInputs: all.map((task) => task.input),
      },
    });
    expect(applied.applied.length).toBeGreaterThan(0);
    const after = await run(applied.harness, tasks);
    expect(after.result.accuracy).toBeGreaterThan(before.result.accuracy + 0.1);
  });
});
