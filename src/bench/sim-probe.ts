import path from "node:path";
import { builtinAgent } from "../agent/index.js";
import { type LoadedConfig, loadConfig, loadTasks, type Task } from "../config/index.js";
import { evaluate, RolloutCache, rolloutParams, scorerForTasks } from "../eval/index.js";
import type { EvolveResult } from "../evolve/index.js";
import { buildGuardContext } from "../evolve/index.js";
import { applyEdits, guardedFiles, type LoadedHarness, loadHarness } from "../harness/index.js";
import { createProvider } from "../llm/index.js";
import { startSimServer } from "../sim/index.js";
import type { World } from "../sim/world-schema.js";
import type { InForcePoint } from "./evolve-outcome.js";
import { acceptedHarnessHash } from "./from-evolve-result.js";
import type { ProbeTrajectory } from "./types.js";

/** Concurrency of probe evaluations (no simulated latency: this only bounds open requests). */
const probeConcurrency = 8;

/**
 * Measures, on the probe tasks, every harness that was in force during a finished run. The
 * harnesses are rebuilt from the run's record — the seed harness, then each accepted
 * iteration's edits applied to its parent through the same guards — and each rebuilt hash must
 * be the one the run recorded. The sim is served at zero latency with the world the run met;
 * rollouts go through the project's probe cache (keyed by harness, task and sample, so a harness
 * two arms share is measured once). Nothing here is on the run's clock or budget.
 */
export async function measureProbe(options: {
  world: World;
  model: string;
  configPath: string;
  cacheDir: string;
  result: EvolveResult;
  inForce: InForcePoint[];
  taskIds: string[];
}): Promise<ProbeTrajectory> {
  const { loaded, tasks, harnesses } = await rebuildRun(options);
  const server = await startSimServer({
    world: options.world,
    model: options.model,
    latencyScale: 0,
  });
  try {
    return await probeHarnesses({
      loaded,
      tasks,
      harnesses,
      baseUrl: server.url,
      cacheDir: options.cacheDir,
      inForce: options.inForce,
    });
  } finally {
    await server.close();
  }
}

/** The run's project config, its probe tasks, and every harness of the run rebuilt from its record. */
async function rebuildRun(options: {
  configPath: string;
  result: EvolveResult;
  taskIds: string[];
}): Promise<{ loaded: LoadedConfig; tasks: Task[]; harnesses: Map<string, LoadedHarness> }> {
  const loaded = await loadConfig(options.configPath);
  const { config } = loaded;
  const train = await loadTasks(path.resolve(loaded.root, config.tasks.train));
  const heldout = await loadTasks(path.resolve(loaded.root, config.tasks.heldout));
  const wanted = new Set(options.taskIds);
  const tasks = heldout.filter((task) => wanted.has(task.id));
  const seed = await loadHarness({
    dir: path.resolve(loaded.root, config.harness.dir),
    kind: "builtin",
  });
  const harnesses = await rebuildHarnesses({
    seed,
    result: options.result,
    // As the run guarded them: the seed's lines are no evidence of a copied task.
    guard: { ...buildGuardContext({ loaded, train, heldout }), seedFiles: guardedFiles(seed) },
  });
  return { loaded, tasks, harnesses };
}

/** Each harness in force, evaluated on the probe tasks against the served sim, in order. */
async function probeHarnesses(options: {
  loaded: LoadedConfig;
  tasks: Task[];
  harnesses: Map<string, LoadedHarness>;
  baseUrl: string;
  cacheDir: string;
  inForce: InForcePoint[];
}): Promise<ProbeTrajectory> {
  const { loaded, tasks, harnesses } = options;
  const { config } = loaded;
  const modelConfig = { ...config.model, maxConcurrency: probeConcurrency };
  const provider = createProvider({
    config: modelConfig,
    baseUrl: options.baseUrl,
    apiKey: "bench-probe",
  });
  const scorer = scorerForTasks(config.tasks.scorer, {
    root: loaded.root,
    judge: provider,
    file: loaded.path,
  });
  const cache = new RolloutCache(options.cacheDir);
  const points = [];
  for (const point of options.inForce) {
    const harness = harnesses.get(point.harnessHash);
    if (!harness)
      throw new Error(`bench: cannot rebuild harness ${point.harnessHash.slice(0, 12)} of the run`);
    const { result } = await evaluate({
      tasks,
      harness,
      provider,
      adapter: builtinAgent(),
      scorer,
      concurrency: probeConcurrency,
      cache,
      split: "heldout",
      label: "bench probe",
      params: rolloutParams(modelConfig),
    });
    points.push({ ...point, accuracy: result.accuracy });
  }
  return { tasks: tasks.length, points };
}

/**
 * Hash → harness for the seed and every candidate an iteration built from a known parent,
 * checked against the record: an accepted one must rebuild (its parent too: the iterative
 * baseline's parents are drawn from its Pareto pool, which holds fully evaluated children that
 * were never in force); a rejected one is kept only when it rebuilds to the recorded hash.
 */
export async function rebuildHarnesses(options: {
  seed: LoadedHarness;
  result: EvolveResult;
  guard: ReturnType<typeof buildGuardContext>;
}): Promise<Map<string, LoadedHarness>> {
  const { seed, result, guard } = options;
  if (seed.hash !== result.harness.seedHash)
    throw new Error("bench: the run's seed harness is not the project's seed harness");
  const harnesses = new Map([[seed.hash, seed]]);
  for (const iteration of result.iterations) {
    const accepted = iteration.verdict === "accepted";
    const candidateHash = accepted ? acceptedHarnessHash(iteration) : iteration.candidateHash;
    if (!candidateHash) continue;
    const parent = harnesses.get(iteration.parentHash);
    if (!parent) {
      if (accepted)
        throw new Error(`bench: iteration ${iteration.index} starts from an unknown harness`);
      continue;
    }
    const rebuilt = applyEdits({ harness: parent, edits: iteration.applied, guard }).harness;
    if (rebuilt.hash === candidateHash) harnesses.set(rebuilt.hash, rebuilt);
    else if (accepted)
      throw new Error(
        `bench: iteration ${iteration.index}'s accepted edits rebuild harness ${rebuilt.hash.slice(0, 12)}, not the recorded ${candidateHash.slice(0, 12)}`,
      );
  }
  return harnesses;
}
