/**
 * Client CPU of the rollout cache, paired against the one-file-per-rollout cache it replaced
 * (`npm exec tsx bench/rollout-cache.ts [-- --tasks 2000 --rounds 5]`):
 *
 * 1. The cache alone: the get (miss) + put of every rollout of a fresh evaluation at
 *    concurrency 8, then the get (hit) of every rollout from a fresh cache object, on the
 *    records a real evaluation wrote.
 * 2. A whole evaluation (built-in agent, real openai SDK, the sim in a child process so only the
 *    client's CPU counts): client CPU per rollout with an empty cache, then with every rollout
 *    cached.
 *
 * Each round runs both caches, alternating which goes first; the medians and the per-round
 * ratio are printed and written to `--out` (default .ecdysis/rollout-cache.json). Not a test.
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { builtinAgent } from "../src/agent/builtin-agent.js";
import { describeMachine } from "../src/bench/machine.js";
import { modelConfigSchema } from "../src/config/config-schema.js";
import { loadTasks } from "../src/config/load-tasks.js";
import { evaluate, RolloutCache, scorerForTasks } from "../src/eval/index.js";
import type { RolloutRecord } from "../src/eval/types.js";
import { loadHarness } from "../src/harness/index.js";
import { createProvider } from "../src/llm/index.js";
import { generateWorldFiles, loadWorld } from "../src/sim/index.js";
import { OneFilePerRolloutCache } from "./baselines/one-file-rollout-cache.js";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    tasks: { type: "string", default: "2000" },
    rounds: { type: "string", default: "5" },
    out: { type: "string", default: path.join(root, ".ecdysis", "rollout-cache.json") },
  },
});
const taskCount = Number(values.tasks);
const rounds = Number(values.rounds);

type Cache = Pick<RolloutCache, "get" | "put">;
const kinds: Record<string, (dir: string) => Cache> = {
  before: (dir) => new OneFilePerRolloutCache(dir),
  after: (dir) => new RolloutCache(dir),
};

/** CPU microseconds (user + system, every thread of this process) that `work` took. */
async function cpu(work: () => Promise<unknown>): Promise<number> {
  const started = process.cpuUsage();
  await work();
  const used = process.cpuUsage(started);
  return used.user + used.system;
}

async function pool<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** The world, its files and the sim serving it in a child process. */
async function setUp() {
  const world = await loadWorld("quickstart");
  const perFamily = Math.ceil(taskCount / world.families.length);
  for (const family of world.families) family.counts = { train: perFamily, heldout: 0 };
  world.latency.scale = 0;
  const dir = await mkdtemp(path.join(os.tmpdir(), "ecdysis-cache-bench-"));
  const worldFile = path.join(dir, "world.json");
  await writeFile(worldFile, JSON.stringify(world));
  const files = await generateWorldFiles({ world, outDir: dir });
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(root, "src/cli.ts"), "sim", "serve", "--world", worldFile],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /at (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]);
    });
    child.on("exit", () => reject(new Error(`sim serve ended: ${text}`)));
  });
  const tasks = (await loadTasks(files.train)).slice(0, taskCount);
  const harness = await loadHarness({ dir: files.harnessDir, kind: "builtin" });
  const config = modelConfigSchema.parse({ provider: "openai", baseUrl: url, model: "sim-1" });
  const provider = createProvider({ config, baseUrl: url, apiKey: "bench" });
  return { dir, child, tasks, harness, provider };
}

const setup = await setUp();
const evaluation = (cache: Cache) =>
  evaluate({
    tasks: setup.tasks,
    harness: setup.harness,
    provider: setup.provider,
    adapter: builtinAgent(),
    scorer: scorerForTasks({ kind: "exact" }, { root: setup.dir }),
    concurrency: 8,
    split: "train",
    cache: cache as RolloutCache,
  });

const { records } = await evaluation(new RolloutCache(path.join(setup.dir, "warm-up")));
const samples: Record<string, Record<string, number[]>> = { before: {}, after: {} };
const note = (kind: string, name: string, value: number) => {
  samples[kind][name] ??= [];
  samples[kind][name].push(value);
};

for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
  for (const kind of order) {
    const dir = await mkdtemp(path.join(setup.dir, `${kind}-`));
    const make = kinds[kind];
    const cache = make(path.join(dir, "ops"));
    note(
      kind,
      "opsColdUs",
      await cpu(() =>
        pool(records, (r) => cache.get(r.key).then(() => cache.put(r as RolloutRecord))),
      ),
    );
    const reader = make(path.join(dir, "ops"));
    note(kind, "opsWarmUs", await cpu(() => pool(records, (r) => reader.get(r.key))));
    note(kind, "evalColdUs", await cpu(() => evaluation(make(path.join(dir, "eval")))));
    note(kind, "evalWarmUs", await cpu(() => evaluation(make(path.join(dir, "eval")))));
    await rm(dir, { recursive: true, force: true });
  }
}
setup.child.kill("SIGTERM");

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const perRollout = (kind: string, name: string) => median(samples[kind][name]) / records.length;
const pairedRatio = (name: string) =>
  median(samples.after[name].map((after, index) => after / samples.before[name][index]));
const figures = Object.fromEntries(
  ["opsColdUs", "opsWarmUs", "evalColdUs", "evalWarmUs"].map((name) => [
    name,
    {
      beforeUsPerRollout: Math.round(perRollout("before", name)),
      afterUsPerRollout: Math.round(perRollout("after", name)),
      pairedRatio: Number(pairedRatio(name).toFixed(3)),
    },
  ]),
);
const report = {
  date: new Date().toISOString(),
  machine: describeMachine(),
  rollouts: records.length,
  rounds,
  figures,
  samples,
};
await mkdir(path.dirname(values.out), { recursive: true });
await writeFile(values.out, `${JSON.stringify(report, null, 2)}\n`);
const labels: Record<string, string> = {
  opsColdUs: "cache alone, miss + put",
  opsWarmUs: "cache alone, hit",
  evalColdUs: "whole evaluation, empty cache",
  evalWarmUs: "whole evaluation, all cached",
};
process.stdout.write(
  `${records.length} rollouts × ${rounds} paired rounds; ${report.machine.cpu}, Node ${report.machine.node}\n`,
);
for (const [name, figure] of Object.entries(figures)) {
  process.stdout.write(
    `${labels[name]}: ${figure.beforeUsPerRollout} → ${figure.afterUsPerRollout} µs client CPU per rollout (paired ratio ${figure.pairedRatio}, ${Math.round((1 - figure.pairedRatio) * 100)}% cheaper)\n`,
  );
}
await rm(setup.dir, { recursive: true, force: true });
