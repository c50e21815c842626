/**
 * The sandbox's cost per rollout (`npx tsx bench/sandbox-cost.ts [-- --rollouts 40]`): a fast
 * command-harness agent (Node, one call to the simulated model on loopback, latency 0) run one
 * rollout at a time, sandboxed (bubblewrap, the in-sandbox relay) and unsandboxed, the two
 * interleaved rollout by rollout (ABBA) so that the machine's load falls on both alike; and the
 * same for an agent that calls no model (the sandbox's fixed cost alone, without the relay).
 * Prints medians, the ratio and the difference, with the machine's load average, and writes them
 * to `--out` (default .ecdysis/sandbox-cost.json). Not a test: it asserts nothing about times.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { commandAgent } from "../src/agent/command-agent.js";
import { bubblewrapSandbox } from "../src/agent/sandbox/agent-sandbox.js";
import { exposureOf } from "../src/agent/sandbox/sandbox-mounts.js";
import { probeSandbox } from "../src/agent/sandbox/sandbox-probe.js";
import { promptFileAgentScript } from "../src/agent/testing/prompt-file-agent.js";
import { describeMachine } from "../src/bench/machine.js";
import { modelConfigSchema } from "../src/config/config-schema.js";
import { harnessHash } from "../src/harness/hash.js";
import type { LoadedHarness } from "../src/harness/types.js";
import { openHarnessWorkspace } from "../src/harness/workspace.js";
import { createProvider } from "../src/llm/index.js";
import { loadWorld, startSimServer } from "../src/sim/index.js";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    rollouts: { type: "string", default: "40" },
    out: { type: "string", default: path.join(root, ".ecdysis", "sandbox-cost.json") },
  },
});
const rollouts = Number(values.rollouts);

const probe = await probeSandbox();
if (!probe.available) throw new Error(`no sandbox here: ${probe.reason}; ${probe.fix}`);
const world = await loadWorld("quickstart");
const server = await startSimServer({ world, latencyScale: 0 });
const dir = await mkdtemp(path.join(os.tmpdir(), "ecdysis-sandbox-cost-"));
const workspace = openHarnessWorkspace({ parent: path.join(dir, "harnesses") });
const config = modelConfigSchema.parse({ provider: "openai", baseUrl: server.url, model: "sim-1" });
const provider = createProvider({ config, baseUrl: server.url, apiKey: "unused" });
const sandbox = bubblewrapSandbox({
  bwrap: probe.bwrap,
  read: [],
  exposure: exposureOf({ root: dir, taskFiles: [] }),
});

async function harnessOf(name: string, script: string): Promise<LoadedHarness> {
  const folder = path.join(dir, name);
  await mkdir(path.join(folder, "prompts"), { recursive: true });
  const files = { "agent.js": script, "prompts/system.md": "Answer with 'Answer: <value>'.\n" };
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(folder, file), text);
  const command = ["node", "agent.js"];
  return {
    kind: "command",
    dir: folder,
    files,
    command,
    hash: harnessHash({ kind: "command", files, command }),
  };
}

const noModel = `process.stdin.resume(); process.stdin.on("end", () => process.stdout.write(JSON.stringify({ output: "Answer: 0" })));`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function measure(harness: LoadedHarness) {
  const arms = {
    sandboxed: commandAgent({ timeoutMs: 60_000, projectRoot: dir, workspace, sandbox }),
    unsandboxed: commandAgent({ timeoutMs: 60_000, projectRoot: dir, workspace }),
  };
  const times: Record<keyof typeof arms, number[]> = { sandboxed: [], unsandboxed: [] };
  const task = { id: "t", input: "What is 6 * 7?", expected: "42", category: "arithmetic" };
  for (let index = 0; index < rollouts; index++) {
    const order: (keyof typeof arms)[] =
      index % 2 === 0 ? ["sandboxed", "unsandboxed"] : ["unsandboxed", "sandboxed"];
    for (const arm of order) {
      const started = performance.now();
      const trace = await arms[arm].run({ task, harness, provider, sampleIndex: index });
      if (trace.events.length > 0) throw new Error(`${arm}: ${JSON.stringify(trace.events)}`);
      times[arm].push(performance.now() - started);
    }
  }
  const sandboxed = median(times.sandboxed);
  const unsandboxed = median(times.unsandboxed);
  return {
    sandboxedMs: sandboxed,
    unsandboxedMs: unsandboxed,
    ratio: sandboxed / unsandboxed,
    addedMs: sandboxed - unsandboxed,
  };
}

try {
  const loadBefore = os.loadavg()[0];
  const result = {
    machine: describeMachine(),
    loadAverage: { before: loadBefore },
    rollouts,
    modelAgent: await measure(await harnessOf("model-agent", promptFileAgentScript)),
    noModelAgent: await measure(await harnessOf("no-model-agent", noModel)),
  };
  Object.assign(result.loadAverage, { after: os.loadavg()[0] });
  const line = (name: string, figures: typeof result.modelAgent) =>
    `${name}: sandboxed ${figures.sandboxedMs.toFixed(0)} ms, unsandboxed ${figures.unsandboxedMs.toFixed(0)} ms per rollout (median of ${rollouts}): ×${figures.ratio.toFixed(2)}, +${figures.addedMs.toFixed(0)} ms`;
  console.log(
    `${result.machine.cpu} (${result.machine.cores} cores), Node ${result.machine.node}; load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(line("agent calling the model once", result.modelAgent));
  console.log(line("agent calling no model", result.noModelAgent));
  await mkdir(path.dirname(values.out), { recursive: true });
  await writeFile(values.out, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await workspace.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
