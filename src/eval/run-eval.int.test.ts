import { cp, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config.js";
import {
  generateWorldFiles,
  loadWorld,
  type SimFaults,
  serveSimModel,
  startSimServer,
} from "../sim/index.js";
import { openModels } from "./open-models.js";
import { runEval } from "./run-eval.js";

/** A project on the quickstart world whose model is an OpenAI-compatible URL. */
async function project(url: string, files: { train: string; heldout: string; harnessDir: string }) {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-run-eval-"));
  await cp(files.harnessDir, join(dir, "harness"), { recursive: true });
  await cp(files.train, join(dir, "train.jsonl"));
  await cp(files.heldout, join(dir, "heldout.jsonl"));
  await writeFile(
    join(dir, "ecdysis.yml"),
    `model:\n  provider: openai\n  baseUrl: ${url}\n  model: sim-1\n  apiKeyEnv: SIM_KEY\n  timeoutMs: 400\n  maxRetries: 6\nharness: {}\ntasks:\n  train: train.jsonl\n  heldout: heldout.jsonl\nconcurrency: 4\n`,
  );
  return loadConfig(join(dir, "ecdysis.yml"));
}

async function evaluateAgainst(faults: SimFaults, files: Parameters<typeof project>[1]) {
  const server = await startSimServer({ world: await loadWorld("quickstart"), faults });
  try {
    const loaded = await project(server.url, files);
    const models = await openModels(loaded, {
      env: { SIM_KEY: "placeholder" },
      simServer: serveSimModel,
    });
    try {
      const outcome = await runEval({ loaded, split: "heldout", models });
      return {
        result: outcome.results["eval.json"],
        requests: server.requests(),
        retries: models.agent.totals().retries,
      };
    } finally {
      await models.close();
    }
  } finally {
    await server.close();
  }
}

describe("runEval through a faulty endpoint", () => {
  it("gives the same results as a clean endpoint despite 429s, 500s and stalls", async () => {
    const files = await generateWorldFiles({
      world: await loadWorld("quickstart"),
      outDir: await mkdtemp(join(tmpdir(), "ecdysis-world-")),
    });
    const clean = await evaluateAgainst({}, files);
    const faulty = await evaluateAgainst(
      { status429Every: 5, retryAfterSeconds: 0, status500Every: 7, stallEvery: 13, stallMs: 1500 },
      files,
    );
    expect(faulty.retries).toBeGreaterThan(0);
    expect(faulty.requests).toBeGreaterThan(clean.requests);
    const { cost: _clean, ...cleanResult } = clean.result;
    const { cost: _faulty, ...faultyResult } = faulty.result;
    expect(faultyResult).toEqual(cleanResult);
    expect(faulty.result.cost.llmCalls).toBe(clean.result.cost.llmCalls);
    expect(faulty.result.tasks.every((task) => task.samples === 1)).toBe(true);
  });
});
