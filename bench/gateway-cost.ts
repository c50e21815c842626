/**
 * The model gateway's cost per model call (`npx tsx bench/gateway-cost.ts [-- --rollouts 20
 * --calls 10]`): a Node agent that makes `calls` chat completions per rollout to the simulated
 * model (loopback, latency 0) and times each one itself (`performance.now()` around `fetch`, in
 * the agent's process, so process starts and the sandbox's set-up are not in it). Three arms,
 * interleaved rollout by rollout in a rotating order so that the machine's load falls on all
 * alike: the agent calling the sim directly (unsandboxed: the baseline), through the gateway
 * unsandboxed (loopback TCP), and through the gateway sandboxed (the in-sandbox relay to the
 * gateway's unix socket). The gateway keeps no replies here (no cache dir), so every call goes
 * upstream; each call's seed differs. Prints the median per-call latency of each arm and the
 * overheads, with the load average; writes them to `--out` (default
 * .ecdysis/gateway-cost.json). Not a test: it asserts nothing about times.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { commandAgent } from "../src/agent/command-agent.js";
import { gatewayModelAccess } from "../src/agent/gateway-access.js";
import type { ModelAccess } from "../src/agent/model-access.js";
import { bubblewrapSandbox } from "../src/agent/sandbox/agent-sandbox.js";
import { exposureOf } from "../src/agent/sandbox/sandbox-mounts.js";
import { probeSandbox } from "../src/agent/sandbox/sandbox-probe.js";
import { describeMachine } from "../src/bench/machine.js";
import { modelConfigSchema } from "../src/config/config-schema.js";
import { harnessHash } from "../src/harness/hash.js";
import type { LoadedHarness } from "../src/harness/types.js";
import { openHarnessWorkspace } from "../src/harness/workspace.js";
import { CapabilityState } from "../src/llm/capability-state.js";
import {
  createProvider,
  createWireForwarder,
  startModelGateway,
  systemClock,
} from "../src/llm/index.js";
import { loadWorld, startSimServer } from "../src/sim/index.js";

const root = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    rollouts: { type: "string", default: "20" },
    calls: { type: "string", default: "10" },
    out: { type: "string", default: path.join(root, ".ecdysis", "gateway-cost.json") },
  },
});
const rollouts = Number(values.rollouts);
const calls = Number(values.calls);

const probe = await probeSandbox();
if (!probe.available) throw new Error(`no sandbox here: ${probe.reason}; ${probe.fix}`);
const server = await startSimServer({ world: await loadWorld("quickstart"), latencyScale: 0 });
const config = modelConfigSchema.parse({ provider: "openai", baseUrl: server.url, model: "sim-1" });
const provider = createProvider({ config, baseUrl: server.url, apiKey: "unused" });
const upstream = createWireForwarder({
  config,
  baseUrl: server.url,
  apiKey: "unused",
  clock: systemClock,
  capabilities: new CapabilityState({ config, endpoint: server.url }),
});
const gateway = await startModelGateway({ upstreams: [upstream] });
const dir = await mkdtemp(path.join(os.tmpdir(), "ecdysis-gateway-cost-"));
const workspace = openHarnessWorkspace({ parent: path.join(dir, "harnesses") });
const sandbox = bubblewrapSandbox({
  bwrap: probe.bwrap,
  read: [],
  exposure: exposureOf({ root: dir, taskFiles: [] }),
});

/** `calls` completions, each timed in the agent; the times (ms) are its output. */
const timedAgent = `
const { performance } = require("node:perf_hooks");
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", async () => {
  const task = JSON.parse(input);
  const times = [];
  for (let call = 0; call < ${calls}; call++) {
    const started = performance.now();
    const response = await fetch(process.env.OPENAI_BASE_URL + "/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer " + (process.env.OPENAI_API_KEY || "unused") },
      body: JSON.stringify({ model: process.env.ECDYSIS_MODEL, seed: task.sampleIndex * 1000 + call, messages: [{ role: "user", content: task.input }] }),
    });
    const reply = await response.json();
    if (!reply.choices) throw new Error(JSON.stringify(reply));
    times.push(performance.now() - started);
  }
  process.stdout.write(JSON.stringify({ output: JSON.stringify(times) }));
});`;

async function harness(): Promise<LoadedHarness> {
  const folder = path.join(dir, "agent");
  await mkdir(folder, { recursive: true });
  const files = { "agent.js": timedAgent };
  await writeFile(path.join(folder, "agent.js"), timedAgent);
  const command = ["node", "agent.js"];
  return {
    kind: "command",
    dir: folder,
    files,
    command,
    hash: harnessHash({ kind: "command", files, command }),
  };
}

const direct: ModelAccess = { open: async () => ({ baseUrl: server.url, close: async () => {} }) };
const common = { timeoutMs: 120_000, projectRoot: dir, workspace };
const arms = {
  direct: commandAgent({ ...common, modelAccess: direct }),
  gateway: commandAgent({ ...common, modelAccess: gatewayModelAccess(gateway) }),
  gatewaySandboxed: commandAgent({ ...common, modelAccess: gatewayModelAccess(gateway), sandbox }),
};
type Arm = keyof typeof arms;
const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

try {
  const loadBefore = os.loadavg()[0];
  const loaded = await harness();
  const task = { id: "t", input: "What is 6 * 7?", expected: "42", category: "arithmetic" };
  const times: Record<Arm, number[]> = { direct: [], gateway: [], gatewaySandboxed: [] };
  const names = Object.keys(arms) as Arm[];
  for (let index = 0; index < rollouts; index++) {
    const order = names.map((_, at) => names[(at + index) % names.length]);
    for (const arm of order) {
      const trace = await arms[arm].run({ task, harness: loaded, provider, sampleIndex: index });
      if (trace.events.length > 0) throw new Error(`${arm}: ${JSON.stringify(trace.events)}`);
      times[arm].push(...(JSON.parse(trace.output) as number[]));
    }
  }
  const medians = Object.fromEntries(names.map((arm) => [arm, median(times[arm])])) as Record<
    Arm,
    number
  >;
  const result = {
    machine: describeMachine(),
    loadAverage: { before: loadBefore, after: os.loadavg()[0] },
    rollouts,
    callsPerArm: times.direct.length,
    medianCallMs: medians,
    overheadMs: {
      gateway: medians.gateway - medians.direct,
      gatewaySandboxed: medians.gatewaySandboxed - medians.direct,
    },
  };
  console.log(
    `${result.machine.cpu} (${result.machine.cores} cores), Node ${result.machine.node}; load average ${loadBefore.toFixed(1)} → ${result.loadAverage.after.toFixed(1)}`,
  );
  for (const arm of names)
    console.log(
      `${arm}: median ${medians[arm].toFixed(2)} ms per call (${times[arm].length} calls)`,
    );
  console.log(
    `gateway overhead per call: +${result.overheadMs.gateway.toFixed(2)} ms unsandboxed, +${result.overheadMs.gatewaySandboxed.toFixed(2)} ms sandboxed`,
  );
  await mkdir(path.dirname(values.out), { recursive: true });
  await writeFile(values.out, `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await workspace.close();
  await gateway.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
}
