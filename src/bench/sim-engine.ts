import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isBundledWorld, loadConfig } from "../config/index.js";
import { loadTasks } from "../config/load-tasks.js";
import { openModels } from "../eval/index.js";
import type { EvolveResult } from "../evolve/index.js";
import { runEvolve } from "../evolve/index.js";
import { writeEvolveReports } from "../report/index.js";
import { bundledWorlds, loadWorld, startSimServer } from "../sim/index.js";
import { generateWorldWithTruth } from "../sim/world-generator.js";
import type { World } from "../sim/world-schema.js";
import type { BenchClock, BenchEngine, PreparedProject, SharedRunSettings } from "./engine.js";
import { toEvolveOutcome } from "./from-evolve-result.js";
import { spendByIteration } from "./journal-spend.js";
import { benchKeyEnv, projectConfigYaml } from "./project-config.js";
import { measureProbe } from "./sim-probe.js";
import type { BenchStrategy, BenchWorld, RefinerVariant } from "./types.js";

/**
 * The real bench engine: worlds from `src/sim`, projects generated with `generateWorldFiles`,
 * runs through `runEvolve`. The bench serves the sim itself, in-process on loopback: the
 * pipeline sees only an OpenAI-compatible endpoint (`provider: openai`, a base URL), never the
 * world file, which stays in the bench's own project folder with the ground truth.
 */
export function simEngine(): BenchEngine {
  const loaded = new Map<string, World>();
  const prepared = new Map<string, { world: World; files: ProjectFiles }>();
  const results = new Map<string, EvolveResult>();
  const worldOf = async (source: string): Promise<World> => {
    const known = loaded.get(source);
    if (known) return known;
    const world = await loadWorld(source);
    loaded.set(source, world);
    return world;
  };
  const preparedOf = (dir: string) => {
    const entry = prepared.get(dir);
    if (!entry) throw new Error(`bench: project ${dir} was not prepared by this engine`);
    return entry;
  };
  return {
    bundledWorlds: () => bundledWorlds(),
    async describeWorld(nameOrPath) {
      const source = isBundledWorld(nameOrPath) ? nameOrPath : path.resolve(nameOrPath);
      return describe(await worldOf(source), source);
    },
    async prepareProject({ world, seed, dir }): Promise<PreparedProject> {
      const seeded: World = { ...(await worldOf(world.source)), seed };
      const { files, project } = await generateProject(seeded, dir);
      prepared.set(dir, { world: seeded, files });
      return project;
    },
    async runStrategy({ project, strategy, refiner, settings, outDir, clock }) {
      const { world, files } = preparedOf(project.dir);
      const result = await runArm({
        world: playedWorld(world, refiner),
        project,
        files,
        strategy,
        settings,
        outDir,
        clock,
      });
      results.set(outDir, result);
      const spentThrough = await spendByIteration(path.join(outDir, "evolve", "journal.jsonl"));
      return { ...toEvolveOutcome(result), spentThrough };
    },
    async probe({ project, refiner, outDir, inForce, taskIds }) {
      const { world } = preparedOf(project.dir);
      const result = results.get(outDir);
      if (!result) throw new Error(`bench: no finished run in ${outDir} to probe`);
      return measureProbe({
        world: playedWorld(world, refiner),
        model: project.agentModel ?? "sim-1",
        configPath: path.join(outDir, "project", "ecdysis.yml"),
        cacheDir: path.join(project.dir, `probe-cache-${refiner}`),
        result,
        inForce,
        taskIds,
      });
    },
  };
}

/** Generates a seeded world's project (tasks, seed harness, ground truth) into a fresh `dir`. */
async function generateProject(
  seeded: World,
  dir: string,
): Promise<{ files: ProjectFiles; project: PreparedProject }> {
  // A fresh folder: a leftover project from an earlier bench would carry its caches.
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const files = await generateWorldWithTruth({ world: seeded, outDir: dir });
  // Kept for reproducibility beside the ground truth; never copied into a run's project.
  await writeFile(path.join(dir, "world.json"), `${JSON.stringify(seeded, null, 2)}\n`);
  const train = await loadTasks(files.train);
  const heldout = await loadTasks(files.heldout);
  return {
    files: {
      train: path.relative(dir, files.train),
      heldout: path.relative(dir, files.heldout),
      harnessDir: path.relative(dir, files.harnessDir),
    },
    project: {
      dir,
      groundTruthPath: files.groundTruth,
      agentModel: agentModelOf(seeded),
      trainTasks: train.length,
      heldoutTaskIds: heldout.map((task) => task.id),
    },
  };
}

/**
 * One arm on a private copy of the project (its own rollout cache and journal, an untouched seed
 * harness — fresh every time: a leftover journal or cache would let runEvolve resume and skip paid
 * work), against the sim served for this run alone; writes the run's reports.
 */
async function runArm(options: {
  world: World;
  project: PreparedProject;
  files: ProjectFiles;
  strategy: BenchStrategy;
  settings: SharedRunSettings;
  outDir: string;
  clock: BenchClock;
}): Promise<EvolveResult> {
  const { project, files, strategy, settings, outDir } = options;
  const projectDir = path.join(outDir, "project");
  await rm(outDir, { recursive: true, force: true });
  await mkdir(projectDir, { recursive: true });
  for (const relative of [files.train, files.heldout, files.harnessDir]) {
    await cp(path.join(project.dir, relative), path.join(projectDir, relative), {
      recursive: true,
    });
  }
  const server = await startSimServer({
    world: options.world,
    model: project.agentModel,
    latencyScale: settings.latencyScale,
  });
  try {
    const configPath = path.join(projectDir, "ecdysis.yml");
    await writeFile(
      configPath,
      projectConfigYaml({
        strategy: strategy === "ecdysis-serial" ? "ecdysis" : strategy,
        settings,
        model: project.agentModel ?? "sim-1",
        baseUrl: server.url,
        ...files,
      }),
    );
    const config = await loadConfig(configPath);
    const models = await openModels(config, { env: { [benchKeyEnv]: "bench-sim" } });
    try {
      const result = await runEvolve({
        loaded: config,
        outDir: path.join(outDir, "evolve"),
        models,
        clock: options.clock,
        // The serial arm: Ecdysis with its pipelining (src/evolve/speed) switched off.
        speedups: strategy !== "ecdysis-serial",
      });
      await writeEvolveReports({ outDir: path.join(outDir, "evolve"), result });
      return result;
    } finally {
      await models.close();
    }
  } finally {
    await server.close();
  }
}

/** Paths of a generated project's files, relative to its folder. */
interface ProjectFiles {
  train: string;
  heldout: string;
  harnessDir: string;
}

/** The world the sim plays: as written, or with a neutral refiner (the decomposition's control). */
function playedWorld(world: World, refiner: RefinerVariant): World {
  if (refiner === "world") return world;
  return {
    ...world,
    refiner: {
      ...world.refiner,
      accuracyAtOne: world.refiner.accuracyAtMany,
      hintTendencyAtOne: 0,
      neutral: true,
    },
  };
}

function agentModelOf(world: World): string {
  return world.groundTruthModels[0] ?? "sim-1";
}

function describe(world: World, source: string): BenchWorld {
  const { name, description, refiner, skeptic, seed: _seed, ...parameters } = world;
  return {
    name,
    source,
    description: description || undefined,
    parameters,
    refinerAssumptions: { ...refiner, skepticStrictness: skeptic.strictness },
    neutralRefiner: refiner.neutral,
  };
}
