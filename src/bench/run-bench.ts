import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { renderBenchMarkdown } from "./bench-markdown.js";
import { type BenchOptionsInput, benchOptionsSchema } from "./bench-options.js";
import {
  type BenchClock,
  type BenchEngine,
  type SharedRunSettings,
  systemBenchClock,
} from "./engine.js";
import type { EvolveOutcome } from "./evolve-outcome.js";
import { type GroundTruth, readGroundTruth } from "./ground-truth.js";
import { describeMachine } from "./machine.js";
import {
  findAccommodations,
  findIneffectiveEdits,
  meanPurity,
  patternPurities,
} from "./scoring.js";
import { computeRatios, ratiosByWorld, summarise } from "./summary.js";
import { timeToMatchPairs } from "./time-to-match.js";
import type { BenchResult, BenchRun, BenchStrategy, BenchWorld, Machine } from "./types.js";

/** Called after each finished run (for progress lines); `index` counts from 0. */
export type BenchRunListener = (run: BenchRun, index: number, total: number) => void;

/**
 * Runs every strategy on every world × seed with the same budget, latency model and
 * concurrency, one run after another (two runs at once would share the CPU and distort wall
 * times), scores each run against the sim's ground truth and writes `bench.json` and `bench.md`
 * to `outDir`. Returns what it wrote.
 */
export async function runBench(
  input: BenchOptionsInput & {
    engine?: BenchEngine;
    clock?: BenchClock;
    /** Fixed date/machine for reproducible output in tests. */
    date?: Date;
    machine?: Machine;
    onRun?: BenchRunListener;
  },
): Promise<BenchResult> {
  const { engine: injected, clock = systemBenchClock, date, machine, onRun, ...raw } = input;
  const options = benchOptionsSchema.parse(raw);
  const engine = injected ?? (await import("./sim-engine.js")).simEngine();
  const outDir = path.resolve(options.outDir);
  const names = options.worlds.length > 0 ? options.worlds : engine.bundledWorlds();
  const worlds: BenchWorld[] = [];
  for (const name of names) worlds.push(await engine.describeWorld(name));

  const runs: BenchRun[] = [];
  const total = worlds.length * options.seeds.length * options.strategies.length;
  for (const world of worlds) {
    for (const seed of options.seeds) {
      const projectDir = path.join(outDir, "projects", `${safeName(world.name)}-seed${seed}`);
      const project = await engine.prepareProject({ world, seed, dir: projectDir });
      const truth = await readGroundTruth(project.groundTruthPath, { model: project.agentModel });
      const settings: SharedRunSettings = {
        seed,
        budgetRollouts: options.budgetRollouts,
        latencyScale: options.latencyScale,
        concurrency: options.concurrency,
        maxIterations: options.maxIterations,
      };
      for (const strategy of options.strategies) {
        const runDir = path.join(outDir, "runs", `${safeName(world.name)}-seed${seed}-${strategy}`);
        const started = clock.now();
        const outcome = await engine.runStrategy({
          project,
          world,
          strategy,
          settings,
          outDir: runDir,
          clock,
        });
        const wallMs = clock.now() - started;
        const run = scoreRun({ strategy, world: world.name, seed, wallMs, outcome, truth });
        runs.push(run);
        onRun?.(run, runs.length - 1, total);
      }
    }
  }

  const result: BenchResult = {
    version: 1,
    date: (date ?? new Date()).toISOString(),
    machine: machine ?? describeMachine(),
    settings: {
      strategies: options.strategies,
      seeds: options.seeds,
      budgetRollouts: options.budgetRollouts,
      latencyScale: options.latencyScale ?? null,
      concurrency: options.concurrency,
      maxIterations: options.maxIterations,
    },
    worlds,
    runs,
    summary: summarise(runs),
    ratios: computeRatios(runs),
    ratiosByWorld: ratiosByWorld(runs),
    timeToMatch: timeToMatchPairs(runs),
  };
  await mkdir(outDir, { recursive: true });
  await writeAtomically(path.join(outDir, "bench.json"), `${JSON.stringify(result, null, 2)}\n`);
  await writeAtomically(path.join(outDir, "bench.md"), renderBenchMarkdown(result));
  return result;
}

/** Turns one evolve outcome into a bench run, scored against the world's ground truth. */
export function scoreRun(options: {
  strategy: BenchStrategy;
  world: string;
  seed: number;
  /** Wall time of the whole run as the bench measured it. */
  wallMs: number;
  outcome: EvolveOutcome;
  truth: GroundTruth;
}): BenchRun {
  const { outcome, truth } = options;
  const accommodations = findAccommodations({ edits: outcome.acceptedEdits, truth });
  const ineffective = findIneffectiveEdits({
    edits: outcome.acceptedEdits,
    skip: new Set(accommodations.map((finding) => finding.editIndex)),
  });
  const purities = patternPurities({ patterns: outcome.patterns, truth });
  return {
    strategy: options.strategy,
    world: options.world,
    seed: options.seed,
    wallMs: Math.round(outcome.training.wallMs),
    rollouts: outcome.training.rollouts,
    llmCalls: outcome.training.llmCalls,
    promptTokens: outcome.training.promptTokens,
    completionTokens: outcome.training.completionTokens,
    refinementShare: outcome.training.refinementShare,
    totalWallMs: Math.round(options.wallMs),
    totalRollouts: outcome.total.rollouts,
    trainAccuracy: outcome.final.train.accuracy,
    trainTasks: outcome.final.train.n,
    heldoutAccuracy: outcome.final.heldout.accuracy,
    seedTrainAccuracy: outcome.baseline.train.accuracy,
    seedHeldoutAccuracy: outcome.baseline.heldout.accuracy,
    acceptedEdits: outcome.acceptedEdits.length,
    accommodations: accommodations.length,
    accommodationReasons: accommodations.map(
      (finding) => `edit ${finding.editIndex + 1}: ${finding.reason} (${finding.detail})`,
    ),
    ineffectiveEdits: ineffective.length,
    trajectory: outcome.trajectory,
    trajectorySeedAccuracy: outcome.trajectorySeedAccuracy,
    patternPurity: meanPurity(purities),
    patternsFound: outcome.patterns.length,
  };
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_");
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}
