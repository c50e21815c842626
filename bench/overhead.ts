/**
 * Framework overhead of the evaluation path (`npm exec tsx bench/overhead.ts [-- --world W]`):
 *
 * 1. Framework time per rollout with zero sim latency: rollouts per second through `evaluate`
 *    with the real built-in agent runtime, the real openai SDK and the sim over loopback HTTP.
 * 2. Concurrency efficiency at 50 ms per call: ideal wall time (each rollout's calls back to back,
 *    rollouts spread perfectly over the slots) divided by the measured wall time, at concurrency
 *    1, 4 and 16.
 *
 * Prints the figures and writes them to `--out` (default .ecdysis/overhead.json). Not a test:
 * it asserts nothing about absolute times.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { builtinAgent } from "../src/agent/builtin-agent.js";
import { describeMachine } from "../src/bench/machine.js";
import { modelConfigSchema } from "../src/config/config-schema.js";
import { loadTasks } from "../src/config/load-tasks.js";
import { evaluate, scorerForTasks } from "../src/eval/index.js";
import { loadHarness } from "../src/harness/index.js";
import { createProvider } from "../src/llm/index.js";
import { bundledWorlds, generateWorldFiles, loadWorld, startSimServer } from "../src/sim/index.js";
import type { World } from "../src/sim/world-schema.js";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    world: { type: "string" },
    samples: { type: "string", default: "3" },
    out: { type: "string", default: path.join(root, ".ecdysis", "overhead.json") },
  },
});

const world = await loadWorld(values.world ?? bundledWorlds()[0]);
const dir = await mkdtemp(path.join(os.tmpdir(), "ecdysis-overhead-"));
const files = await generateWorldFiles({ world, outDir: dir });
const tasks = [...(await loadTasks(files.train)), ...(await loadTasks(files.heldout))];
const harness = await loadHarness({ dir: files.harnessDir, kind: "builtin" });
const model = world.groundTruthModels[0] ?? "sim-1";
const samples = Number(values.samples);

/** One evaluation of every task × samples at a given latency and concurrency. */
async function measure(options: { world: World; latencyScale: number; concurrency: number }) {
  const server = await startSimServer({
    world: options.world,
    model,
    latencyScale: options.latencyScale,
  });
  try {
    const config = modelConfigSchema.parse({
      provider: "openai",
      baseUrl: server.url,
      model,
      maxConcurrency: options.concurrency,
    });
    const provider = createProvider({ config, baseUrl: server.url, apiKey: "overhead" });
    const started = performance.now();
    const { records } = await evaluate({
      tasks,
      harness,
      provider,
      adapter: builtinAgent(),
      scorer: scorerForTasks({ kind: "exact" }, { root: dir }),
      samples,
      concurrency: options.concurrency,
      split: "overhead",
    });
    const wallMs = performance.now() - started;
    const calls = records.map((record) => record.trace.usage.llmCalls);
    return { rollouts: records.length, llmCalls: calls.reduce((a, b) => a + b, 0), calls, wallMs };
  } finally {
    await server.close();
  }
}

// 1. Zero latency: everything measured is framework (runtime, SDK, HTTP, sim) time.
const zero = [];
for (const concurrency of [1, 8]) {
  const run = await measure({ world, latencyScale: 0, concurrency });
  zero.push({
    concurrency,
    rollouts: run.rollouts,
    llmCalls: run.llmCalls,
    wallMs: Math.round(run.wallMs),
    rolloutsPerSecond: Number(((run.rollouts / run.wallMs) * 1000).toFixed(1)),
    msPerRollout: Number((run.wallMs / run.rollouts).toFixed(2)),
    msPerCall: Number((run.wallMs / run.llmCalls).toFixed(2)),
  });
}

// 2. A fixed 50 ms per call: compare with the ideal schedule.
const latencyMs = 50;
const fixedLatency: World = { ...world, latency: { fixedMs: latencyMs, perTokenMs: 0, scale: 1 } };
const efficiency = [];
for (const concurrency of [1, 4, 16]) {
  const run = await measure({ world: fixedLatency, latencyScale: 1, concurrency });
  const longest = Math.max(...run.calls) * latencyMs;
  const idealMs = Math.max((run.llmCalls * latencyMs) / concurrency, longest);
  efficiency.push({
    concurrency,
    rollouts: run.rollouts,
    llmCalls: run.llmCalls,
    idealMs: Math.round(idealMs),
    actualMs: Math.round(run.wallMs),
    efficiency: Number((idealMs / run.wallMs).toFixed(3)),
  });
}

const report = {
  date: new Date().toISOString(),
  machine: describeMachine(),
  world: world.name,
  samples,
  zeroLatency: zero,
  at50ms: efficiency,
};
await mkdir(path.dirname(values.out), { recursive: true });
await writeFile(values.out, `${JSON.stringify(report, null, 2)}\n`);

process.stdout.write(
  `world ${world.name}, ${tasks.length} tasks × ${samples} samples; ${report.machine.cpu}, Node ${report.machine.node}\n`,
);
for (const entry of zero) {
  process.stdout.write(
    `zero latency, concurrency ${entry.concurrency}: ${entry.rolloutsPerSecond} rollouts/s, ${entry.msPerRollout} ms/rollout, ${entry.msPerCall} ms/call\n`,
  );
}
for (const entry of efficiency) {
  process.stdout.write(
    `50 ms/call, concurrency ${entry.concurrency}: ideal ${entry.idealMs} ms, actual ${entry.actualMs} ms, efficiency ${(entry.efficiency * 100).toFixed(1)}%\n`,
  );
}
process.stdout.write(`written to ${values.out}\n`);
