import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { renderBenchMarkdown } from "./bench-markdown.js";
import { type BenchOptionsInput, benchOptionsSchema } from "./bench-options.js";
import { computeComparisons } from "./comparisons.js";
import { type BenchClock, type BenchEngine, systemBenchClock } from "./engine.js";
import type { EvolveOutcome } from "./evolve-outcome.js";
import { type GroundTruth, readGroundTruth } from "./ground-truth.js";
import { describeMachine } from "./machine.js";
import { budgetRollouts, planRuns, probeTaskIds, runFolder } from "./run-plan.js";
import {
  type BenchCode,
  readRunRecord,
  reusableCode,
  runRecordKey,
  writeRunRecord,
} from "./run-record.js";
import {
  findAccommodations,
  findIneffectiveEdits,
  meanPurity,
  patternPurities,
} from "./scoring.js";
import { summariseArms } from "./summary.js";
import type {
  BenchResult,
  BenchRun,
  BenchStrategy,
  BenchWorld,
  Machine,
  ProbeTrajectory,
  RefinerVariant,
} from "./types.js";

/**
 * Called after each finished run (for progress lines); `index` counts from 0; `reused` when the
 * run was recorded by an earlier bench in the same folder and `resume` reused it.
 */
export type BenchRunListener = (
  run: BenchRun,
  index: number,
  total: number,
  reused: boolean,
) => void;

/**
 * Runs every arm on every world × seed at every budget with the same latency model and
 * concurrency, one run after another (two runs at once would share the CPU and distort wall
 * times); measures the harnesses each run had in force on a held-out probe set; scores each run
 * against the sim's ground truth and writes `bench.json` and `bench.md` to `outDir`.
 */
export async function runBench(
  input: BenchOptionsInput & {
    engine?: BenchEngine;
    clock?: BenchClock;
    /** Fixed date/machine for reproducible output in tests. */
    date?: Date;
    machine?: Machine;
    /** The code the runs are made with (default: this package's version and checkout). */
    code?: BenchCode;
    onRun?: BenchRunListener;
  },
): Promise<BenchResult> {
  const {
    engine: injected,
    clock = systemBenchClock,
    date,
    machine,
    code: given,
    onRun,
    ...raw
  } = input;
  const options = benchOptionsSchema.parse(raw);
  const benchStarted = clock.now();
  const code = given ?? (await currentCode());
  const canReuse = options.resume && reusableCode(code);
  let reusedRuns = 0;
  const engine = injected ?? (await import("./sim-engine.js")).simEngine();
  const outDir = path.resolve(options.outDir);
  const names = options.worlds.length > 0 ? options.worlds : engine.bundledWorlds();
  const worlds: BenchWorld[] = [];
  for (const name of names) worlds.push(await engine.describeWorld(name));

  const runs: BenchRun[] = [];
  const total = worlds.reduce(
    (sum, world) => sum + planRuns(options, world).length * options.seeds.length,
    0,
  );
  for (const world of worlds) {
    for (const seed of options.seeds) {
      const projectDir = path.join(outDir, "projects", `${safeName(world.name)}-seed${seed}`);
      const project = await engine.prepareProject({ world, seed, dir: projectDir });
      const truth = await readGroundTruth(project.groundTruthPath, { model: project.agentModel });
      const taskIds = probeTaskIds({
        heldout: project.heldoutTaskIds,
        size: options.probeSize,
        seed,
      });
      for (const plan of planRuns(options, world)) {
        const settings = {
          seed,
          budgetRollouts: budgetRollouts(plan.budgetEvals, project.trainTasks),
          latencyScale: options.latencyScale,
          concurrency: options.concurrency,
          maxIterations: options.maxIterations,
          temperature: options.temperature,
        };
        const runDir = path.join(outDir, "runs", runFolder(world.name, seed, plan));
        const key = runRecordKey({ world, seed, plan, settings, probeTaskIds: taskIds, code });
        const recorded = canReuse ? await readRunRecord(runDir, key) : undefined;
        if (recorded) {
          runs.push(recorded);
          reusedRuns += 1;
          onRun?.(recorded, runs.length - 1, total, true);
          continue;
        }
        const started = clock.now();
        const outcome = await engine.runStrategy({
          project,
          world,
          strategy: plan.strategy,
          refiner: plan.refiner,
          settings,
          outDir: runDir,
          clock,
        });
        const wallMs = clock.now() - started;
        // Measured after the run's clock stopped: the probe is the bench's, not the strategy's.
        const probe =
          plan.strategy === "sampling"
            ? null
            : await engine.probe({
                project,
                world,
                refiner: plan.refiner,
                outDir: runDir,
                inForce: outcome.inForce,
                taskIds,
              });
        const run = scoreRun({
          ...plan,
          world: world.name,
          seed,
          budgetRollouts: settings.budgetRollouts,
          wallMs,
          outcome,
          probe,
          truth,
        });
        if (reusableCode(code)) {
          await mkdir(runDir, { recursive: true });
          await writeRunRecord(runDir, { key, code, run });
        }
        runs.push(run);
        onRun?.(run, runs.length - 1, total, false);
      }
    }
  }

  const result: BenchResult = {
    version: 2,
    date: (date ?? new Date()).toISOString(),
    machine: machine ?? describeMachine(),
    settings: {
      strategies: options.strategies,
      seeds: options.seeds,
      budgets: options.budgets,
      latencyScale: options.latencyScale ?? null,
      concurrency: options.concurrency,
      maxIterations: options.maxIterations,
      temperature: options.temperature,
      probeSize: options.probeSize,
      bootstrap: { resamples: options.bootstrapResamples, seed: options.bootstrapSeed },
      decomposition: options.decomposition,
    },
    execution: { code, processes: options.processes, reusedRuns },
    worlds,
    runs,
    arms: summariseArms(runs),
    comparisons: computeComparisons(runs, {
      resamples: options.bootstrapResamples,
      seed: options.bootstrapSeed,
    }),
    benchWallMs: Math.round(
      options.startedAtMs === undefined
        ? clock.now() - benchStarted
        : Date.now() - options.startedAtMs,
    ),
  };
  await mkdir(outDir, { recursive: true });
  await writeAtomically(path.join(outDir, "bench.json"), `${JSON.stringify(result, null, 2)}\n`);
  await writeAtomically(path.join(outDir, "bench.md"), renderBenchMarkdown(result));
  return result;
}

/** Turns one evolve outcome into a bench run, scored against the world's ground truth. */
export function scoreRun(options: {
  strategy: BenchStrategy;
  refiner: RefinerVariant;
  world: string;
  seed: number;
  budgetEvals: number;
  budgetRollouts: number;
  /** Wall time of the whole run as the bench measured it. */
  wallMs: number;
  outcome: EvolveOutcome;
  probe: ProbeTrajectory | null;
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
    refiner: options.refiner,
    seed: options.seed,
    budgetEvals: options.budgetEvals,
    budgetRollouts: options.budgetRollouts,
    stoppedBy: outcome.stoppedBy,
    unspentRollouts: Math.max(0, options.budgetRollouts - outcome.training.rollouts),
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
    heldoutTasks: outcome.final.heldout.n,
    seedTrainAccuracy: outcome.baseline.train.accuracy,
    seedHeldoutAccuracy: outcome.baseline.heldout.accuracy,
    acceptedEdits: outcome.acceptedEdits.length,
    accommodations: accommodations.length,
    accommodationReasons: accommodations.map(
      (finding) => `edit ${finding.editIndex + 1}: ${finding.reason} (${finding.detail})`,
    ),
    ineffectiveEdits: ineffective.length,
    trajectory: outcome.trajectory,
    probe: options.probe,
    patternPurity: meanPurity(purities),
    patternsFound: outcome.patterns.length,
  };
}

async function currentCode(): Promise<BenchCode> {
  const { ecdysisVersion, gitState, packageRoot } = await import("../config/index.js");
  const git = await gitState(packageRoot());
  return { version: ecdysisVersion(), commit: git?.commit, dirty: git?.dirty ?? false };
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_");
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}
