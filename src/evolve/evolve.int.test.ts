import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.js";
import { openModels } from "../eval/open-models.js";
import { loadWorld, type SimServer, serveSimModel, startSimServer } from "../sim/index.js";
// Ground truth, for this test's assertions only (allowed in src/bench/ground-truth-boundary.test.ts).
import { generateWorldWithTruth } from "../sim/world-generator.js";
import type { World } from "../sim/world-schema.js";
import type { EvolveResult, IterationRecord } from "./result-schema.js";
import { runEvolve } from "./run-evolve.js";

// The "must show" on the real sim: the quickstart world, its files generated into a
// temp dir, the sim served on 127.0.0.1 with no latency, the real stages end to end. The
// pipeline never reads ground-truth.json; only these assertions do.

interface TruthTask {
  id: string;
  keyPhrase?: string;
  expected?: unknown;
  deficiencies: { kind: string; systematic: boolean }[];
  latent?: string[];
}

const env = { ECDYSIS_INT_KEY: "not-a-secret" };

async function project(world: World, url: string) {
  const dir = await mkdtemp(path.join(tmpdir(), "ecdysis-evolve-int-"));
  const files = await generateWorldWithTruth({ world, outDir: dir });
  const config = [
    "model:",
    "  provider: openai",
    `  baseUrl: ${url}`,
    "  apiKeyEnv: ECDYSIS_INT_KEY",
    "  model: sim-1",
    "harness:",
    "  dir: harness",
    "  editable: [harness.yaml, system.md, rules.md]",
    "tasks:",
    "  train: tasks/train.jsonl",
    "  heldout: tasks/heldout.jsonl",
    "concurrency: 8",
    "cacheDir: .ecdysis/cache",
    "",
  ].join("\n");
  await writeFile(path.join(dir, "ecdysis.yml"), config);
  const truth = JSON.parse(await readFile(files.groundTruth, "utf8")) as { tasks: TruthTask[] };
  return { dir, loaded: await loadConfig(path.join(dir, "ecdysis.yml")), truth: truth.tasks };
}

async function evolveIn(
  target: Awaited<ReturnType<typeof project>>,
  afterStage?: (stage: string) => void,
): Promise<EvolveResult> {
  const models = await openModels(target.loaded, { env, simServer: serveSimModel });
  try {
    return await runEvolve({
      loaded: target.loaded,
      outDir: path.join(target.dir, "out"),
      models,
      afterStage,
    });
  } finally {
    await models.close();
  }
}

/** result.json without wall times (wallMs, elapsedMs), run metadata (each invocation's own times) and the config hash (the endpoint URL differs per server). */
function comparable(result: EvolveResult): unknown {
  return JSON.parse(
    JSON.stringify(result, (key, value) =>
      key === "wallMs" || key === "elapsedMs" || key === "configHash" || key === "run"
        ? undefined
        : value,
    ),
  );
}

/** The train tasks an accepted iteration's edit aimed at: the members of the patterns it names. */
function addressedTasks(iteration: IterationRecord, patterns: string[]): string[] {
  return (iteration.diagnosis?.patterns ?? [])
    .filter((pattern) => patterns.includes(pattern.id) || patterns.includes(pattern.name))
    .flatMap((pattern) => pattern.taskIds);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function containsToken(text: string, token: string): boolean {
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(token)}($|[^\\p{L}\\p{N}])`, "iu").test(
    text,
  );
}

describe("evolve on the quickstart world (real sim, real stages)", () => {
  let world: World;
  let server: SimServer;
  let reference: { result: EvolveResult; requests: number; truth: TruthTask[] };

  beforeAll(async () => {
    world = { ...(await loadWorld("quickstart")) };
    server = await startSimServer({ world, latencyScale: 0, port: 0, host: "127.0.0.1" });
    const target = await project(world, server.url);
    const before = server.requests();
    const result = await evolveIn(target);
    reference = { result, requests: server.requests() - before, truth: target.truth };
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  it("raises held-out accuracy well above the seed harness", () => {
    const { result } = reference;
    expect(result.final.heldout.accuracy).toBeGreaterThanOrEqual(
      result.baseline.heldout.accuracy + 0.2,
    );
    expect(result.final.train.accuracy).toBeGreaterThan(result.baseline.train.accuracy);
    expect(result.gate.passed).toBe(true);
    expect(result.acceptedEdits.length).toBeGreaterThan(0);
  });

  it("accepts only edits that address systematic deficiencies: no item-slip rule, key phrase or answer", () => {
    const { result, truth } = reference;
    const byId = new Map(truth.map((task) => [task.id, task]));
    const systematic = (task: TruthTask | undefined) =>
      task !== undefined &&
      (task.deficiencies.some((deficiency) => deficiency.systematic) ||
        (task.latent ?? []).length > 0);
    const accepted = result.iterations.filter((iteration) => iteration.verdict === "accepted");
    expect(accepted.length).toBeGreaterThan(0);
    for (const iteration of accepted) {
      for (const planned of iteration.applied) {
        const tasks = addressedTasks(iteration, planned.patterns);
        expect(tasks.length, JSON.stringify(planned.edit)).toBeGreaterThan(0);
        // Aimed at systematic failures: most addressed tasks have a systematic deficiency.
        const hits = tasks.filter((taskId) => systematic(byId.get(taskId))).length;
        expect(hits * 2, JSON.stringify(planned.edit)).toBeGreaterThan(tasks.length);
        // Every accepted edit fixed some of its own targets (per-change attribution).
        const fixed = new Set(
          iteration.validation.findLast((stage) => stage.role === "prune")?.comparison?.fixed ??
            iteration.validation.find((stage) => stage.role === "screen")?.comparison?.fixed,
        );
        expect(
          tasks.some((taskId) => fixed.has(taskId)),
          JSON.stringify(planned.edit),
        ).toBe(true);
        const text = JSON.stringify(planned.edit);
        for (const task of truth) {
          if (task.keyPhrase)
            expect(containsToken(text, task.keyPhrase), task.keyPhrase).toBe(false);
          const expected = task.expected === undefined ? "" : String(task.expected);
          if (expected.length >= 3) expect(containsToken(text, expected), expected).toBe(false);
        }
      }
    }
  });

  it("a run killed mid-iteration and resumed ends with the same result and repeats no finished LLM call", async () => {
    const target = await project(world, server.url);
    const start = server.requests();
    await expect(
      evolveIn(target, (stage) => {
        if (stage === "iteration-2/refine") throw new Error("killed");
      }),
    ).rejects.toThrow("killed");
    const killed = server.requests() - start;
    const result = await evolveIn(target);
    const resumed = server.requests() - start - killed;
    expect(comparable(result)).toEqual(comparable(reference.result));
    expect(killed).toBeGreaterThan(0);
    expect(resumed).toBeGreaterThan(0);
    // Together they made exactly the requests of one uninterrupted run, plus the one-token
    // endpoint check the second process makes before its first batch: nothing was repeated.
    expect(killed + resumed).toBe(reference.requests + 1);
  }, 120_000);
});
