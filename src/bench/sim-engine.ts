import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { isBundledWorld, loadConfig } from "../config/index.js";
import { openModels } from "../eval/index.js";
import { runEvolve } from "../evolve/index.js";
import { writeEvolveReports } from "../report/index.js";
import { bundledWorlds, generateWorldFiles, loadWorld } from "../sim/index.js";
import type { World } from "../sim/world-schema.js";
import type { BenchClock, BenchEngine, PreparedProject, SharedRunSettings } from "./engine.js";
import type { EvolveOutcome } from "./evolve-outcome.js";
import { toEvolveOutcome } from "./from-evolve-result.js";
import { projectConfigYaml } from "./project-config.js";
import type { BenchStrategy, BenchWorld } from "./types.js";

/**
 * The real bench engine: worlds from `src/sim`, projects generated with `generateWorldFiles`,
 * runs through `runEvolve` with the sim started in-process at the bench's latency scale.
 */
export function simEngine(): BenchEngine {
  const loaded = new Map<string, World>();
  const projectFiles = new Map<string, ProjectFiles>();
  const worldOf = async (source: string): Promise<World> => {
    const known = loaded.get(source);
    if (known) return known;
    const world = await loadWorld(source);
    loaded.set(source, world);
    return world;
  };
  return {
    bundledWorlds: () => bundledWorlds(),
    async describeWorld(nameOrPath) {
      const source = isBundledWorld(nameOrPath) ? nameOrPath : path.resolve(nameOrPath);
      return describe(await worldOf(source), source);
    },
    async prepareProject({ world, seed, dir }) {
      const seeded: World = { ...(await worldOf(world.source)), seed };
      // A fresh folder: a leftover project from an earlier bench would carry its caches.
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      const files = await generateWorldFiles({ world: seeded, outDir: dir });
      await writeFile(path.join(dir, "world.json"), `${JSON.stringify(seeded, null, 2)}\n`);
      projectFiles.set(dir, {
        train: path.relative(dir, files.train),
        heldout: path.relative(dir, files.heldout),
        harnessDir: path.relative(dir, files.harnessDir),
      });
      return { dir, groundTruthPath: files.groundTruth, agentModel: agentModelOf(seeded) };
    },
    async runStrategy({ project, strategy, settings, outDir, clock }) {
      const files = projectFiles.get(project.dir);
      if (!files) throw new Error(`bench: project ${project.dir} was not prepared by this engine`);
      return runOne({ project, files, strategy, settings, outDir, clock });
    },
  };
}

/** Paths of a generated project's files, relative to its folder. */
interface ProjectFiles {
  train: string;
  heldout: string;
  harnessDir: string;
}

async function runOne(options: {
  project: PreparedProject;
  files: ProjectFiles;
  strategy: BenchStrategy;
  settings: SharedRunSettings;
  outDir: string;
  clock: BenchClock;
}): Promise<EvolveOutcome> {
  const { project, files, strategy, settings, outDir } = options;
  // A private copy per strategy: its own rollout cache and journal, and an untouched seed harness.
  // Fresh every time: a leftover journal or cache would let runEvolve resume and skip paid work.
  const projectDir = path.join(outDir, "project");
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await cp(project.dir, projectDir, {
    recursive: true,
    filter: (source) => !source.endsWith("ground-truth.json"),
  });
  const configPath = path.join(projectDir, "ecdysis.yml");
  await writeFile(
    configPath,
    projectConfigYaml({
      strategy,
      settings,
      model: project.agentModel ?? "sim-1",
      worldFile: path.join(projectDir, "world.json"),
      ...files,
    }),
  );
  const loaded = await loadConfig(configPath);
  const models = await openModels(loaded, { latencyScale: settings.latencyScale });
  try {
    const evolveDir = path.join(outDir, "evolve");
    const result = await runEvolve({ loaded, outDir: evolveDir, models, clock: options.clock });
    await writeEvolveReports({ outDir: evolveDir, result });
    return toEvolveOutcome(result);
  } finally {
    await models.close();
  }
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
