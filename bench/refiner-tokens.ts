/**
 * Refiner tokens of one ecdysis iteration at a given batch size
 * (`npm exec tsx bench/refiner-tokens.ts [-- --batch 60 --per-family 40 --world quickstart]`).
 *
 * A world with `per-family` train tasks per family is generated; the seed harness runs on the
 * first `batch` train tasks (categories in turn) against the sim over HTTP (the real openai SDK);
 * then one iteration's refiner work runs as evolve runs it: the diagnosis (failure notes, the
 * pattern merge; no re-sampling, the agent being deterministic at temperature 0) and the
 * refinement of its systematic patterns (Diagnostician, Architect ⇄ Skeptic, Editor). Prints the
 * refiner's calls and tokens by purpose. Asserts nothing.
 */
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { builtinAgent } from "../src/agent/builtin-agent.js";
import { modelConfigSchema } from "../src/config/config-schema.js";
import { loadTasks } from "../src/config/load-tasks.js";
import { diagnoseBatch } from "../src/diagnose/diagnose-batch.js";
import { evaluate, scorerForTasks } from "../src/eval/index.js";
import { loadHarness } from "../src/harness/index.js";
import { createProvider } from "../src/llm/index.js";
import { refine } from "../src/refine/refine.js";
import { generateWorldFiles, loadWorld, startSimServer } from "../src/sim/index.js";

const { values } = parseArgs({
  options: {
    world: { type: "string", default: "quickstart" },
    batch: { type: "string", default: "60" },
    "per-family": { type: "string", default: "40" },
  },
});
const batch = Number(values.batch);
const perFamily = Number(values["per-family"]);

const base = await loadWorld(values.world ?? "quickstart");
const world = {
  ...base,
  families: base.families.map((family) => ({
    ...family,
    counts: { train: perFamily, heldout: 1 },
  })),
};
const dir = await mkdtemp(path.join(os.tmpdir(), "ecdysis-refiner-tokens-"));
const files = await generateWorldFiles({ world, outDir: dir });
const all = await loadTasks(files.train);
const byCategory = new Map<string, typeof all>();
for (const task of all)
  byCategory.set(task.category ?? "", [...(byCategory.get(task.category ?? "") ?? []), task]);
const tasks = [];
for (let index = 0; tasks.length < Math.min(batch, all.length); index++)
  for (const group of byCategory.values())
    if (group[index] && tasks.length < batch) tasks.push(group[index]);
const harness = await loadHarness({ dir: files.harnessDir, kind: "builtin" });
const server = await startSimServer({ world, latencyScale: 0 });
try {
  const config = modelConfigSchema.parse({
    provider: "openai",
    baseUrl: server.url,
    model: "sim-1",
  });
  const agent = createProvider({ config, baseUrl: server.url });
  const refiner = createProvider({ config, baseUrl: server.url });
  const { records } = await evaluate({
    tasks,
    harness,
    provider: agent,
    adapter: builtinAgent(),
    scorer: scorerForTasks({ kind: "exact" }, { root: dir }),
    concurrency: 16,
    split: "train",
  });
  const failed = records.filter((record) => !record.verdict.pass).length;
  const diagnosis = await diagnoseBatch({
    records,
    tasks,
    refiner,
    minSupport: { tasks: 3, categories: 1 },
    agentTemperature: 0,
    stepLimit: harness.config?.agent_loop.max_steps,
  });
  const systematic = diagnosis.patterns.filter((pattern) => pattern.kind === "systematic");
  await refine({ patterns: systematic, harness, refiner, rejected: [], skepticRounds: 2 });
  const totals = refiner.totals();
  const tokens = (entry: { promptTokens: number; completionTokens: number }) =>
    entry.promptTokens + entry.completionTokens;
  console.log(
    `batch ${tasks.length} (world ${world.name}, ${perFamily} train tasks per family): ${failed} failures, ${diagnosis.patterns.length} patterns (${systematic.length} systematic)`,
  );
  for (const [purpose, entry] of Object.entries(totals.byPurpose).sort())
    console.log(
      `  ${purpose.padEnd(16)} ${String(entry.calls).padStart(5)} calls ${String(tokens(entry)).padStart(9)} tokens`,
    );
  console.log(
    `  ${"total".padEnd(16)} ${String(totals.calls).padStart(5)} calls ${String(tokens(totals)).padStart(9)} tokens`,
  );
} finally {
  await server.close();
}
