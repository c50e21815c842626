import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config/load-config.js";
import { openModels } from "../../eval/open-models.js";
import {
  generateWorldFiles,
  loadWorld,
  type SimServer,
  serveSimModel,
  startSimServer,
} from "../../sim/index.js";
import type { World } from "../../sim/world-schema.js";
import type { EvolveResult } from "../result-schema.js";
import { runEvolve } from "../run-evolve.js";

// The speed tricks only start work early: on the quickstart world (real stages, the sim served
// on loopback with no latency), a run with them and a run without them end with the same
// result; only the spend and the time differ (and the record of the Editor's speculative drafts).

const env = { ECDYSIS_INT_KEY: "not-a-secret" };

async function evolve(world: World, url: string, speedups: boolean) {
  const dir = await mkdtemp(path.join(tmpdir(), "ecdysis-speed-"));
  await generateWorldFiles({ world, outDir: dir });
  await writeFile(
    path.join(dir, "ecdysis.yml"),
    [
      `model: { provider: openai, baseUrl: "${url}", apiKeyEnv: ECDYSIS_INT_KEY, model: sim-1 }`,
      "harness: { dir: harness, editable: [harness.yaml, system.md, rules.md] }",
      "tasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }",
      "evolve: { maxIterations: 3 }",
      "concurrency: 8",
      "",
    ].join("\n"),
  );
  const loaded = await loadConfig(path.join(dir, "ecdysis.yml"));
  const models = await openModels(loaded, { env, simServer: serveSimModel });
  const outDir = path.join(dir, "out");
  try {
    const result = await runEvolve({ loaded, outDir, models, speedups });
    const journal = (await readFile(path.join(outDir, "journal.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => JSON.parse(line) as { stage: string; spend: { llmCalls?: number } });
    return { result, journal };
  } finally {
    await models.close();
  }
}

/** The result without what the speed tricks change: spend, times (the run's own too), the Editor's discarded drafts. */
function outcome(result: EvolveResult): unknown {
  const skipped = new Set(["cost", "elapsedMs", "wallMs", "turns", "run"]);
  return JSON.parse(JSON.stringify(result, (key, value) => (skipped.has(key) ? undefined : value)));
}

const early = /-(ahead|prefetch-diagnosis)$/;

describe("the speed tricks (quickstart world, real stages)", () => {
  let world: World;
  let server: SimServer;

  beforeAll(async () => {
    world = await loadWorld("quickstart");
    server = await startSimServer({ world, latencyScale: 0, port: 0, host: "127.0.0.1" });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("with them removed, the same result — they only start work early", async () => {
    const fast = await evolve(world, server.url, true);
    const plain = await evolve(world, server.url, false);
    expect(fast.result.iterations.length).toBeGreaterThan(1);
    expect(fast.result.acceptedEdits.length).toBeGreaterThan(0);
    expect(outcome(plain.result)).toEqual(outcome(fast.result));
    expect(plain.result.cost.rollouts).toBe(fast.result.cost.rollouts);
    // The fast run did start work early, in stages of their own; the plain one did none.
    const earlyCalls = fast.journal
      .filter((entry) => early.test(entry.stage))
      .reduce((sum, entry) => sum + (entry.spend.llmCalls ?? 0), 0);
    expect(earlyCalls).toBeGreaterThan(0);
    expect(plain.journal.filter((entry) => early.test(entry.stage))).toEqual([]);
  }, 120_000);
});
