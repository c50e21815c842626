import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { renderBenchMarkdown } from "./bench-markdown.js";
import { type BenchOptions, type BenchOptionsInput, benchOptionsSchema } from "./bench-options.js";
import { computeComparisons } from "./comparisons.js";
import {
  type BenchClock,
  type BenchEngine,
  type PreparedProject,
  type SharedRunSettings,
  systemBenchClock,
} from "./engine.js";
import { type GroundTruth, readGroundTruth } from "./ground-truth.js";
import { describeMachine } from "./machine.js";
import { budgetRollouts, type PlannedRun, planRuns, probeTaskIds, runFolder } from "./run-plan.js";
import {
  type BenchCode,
  readRunRecord,
  reusableCode,
  runRecordKey,
  writeRunRecord,
} from "./run-record.js";
import { scoreRun } from "./score-run.js";
import { summariseArms } from "./summary.js";
import type { BenchResult, BenchRun, BenchWorld, Machine } from "./types.js";

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
  const engine = injected ?? (await import("./sim-engine.js")).simEngine();
  const outDir = path.resolve(options.outDir);
  const worlds = await describeWorlds(engine, options.worlds);
  const session: BenchSession = {
    options,
    engine,
    clock,
    code,
    canReuse: options.resume && reusableCode(code),
    outDir,
    total:
      worlds.reduce((sum, world) => sum + planRuns(options, world).length, 0) *
      options.seeds.length,
    onRun,
    runs: [],
    reusedRuns: 0,
  };
  for (const world of worlds) {
    for (const seed of options.seeds) await runWorldSeed(session, world, seed);
  }
  const result = assembleResult({
    session,
    worlds,
    date,
    machine,
    elapsedMs: () =>
      options.startedAtMs === undefined
        ? clock.now() - benchStarted
        : Date.now() - options.startedAtMs,
  });
  await mkdir(outDir, { recursive: true });
  await writeAtomically(path.join(outDir, "bench.json"), `${JSON.stringify(result, null, 2)}\n`);
  await writeAtomically(path.join(outDir, "bench.md"), renderBenchMarkdown(result));
  return result;
}

/** The named worlds (default: the bundled ones), described one after another. */
async function describeWorlds(engine: BenchEngine, named: string[]): Promise<BenchWorld[]> {
  const worlds: BenchWorld[] = [];
  for (const name of named.length > 0 ? named : engine.bundledWorlds())
    worlds.push(await engine.describeWorld(name));
  return worlds;
}

/** What the runs of one bench share, and the runs so far (in the order they finished). */
interface BenchSession {
  options: BenchOptions;
  engine: BenchEngine;
  clock: BenchClock;
  code: BenchCode;
  /** `--resume` and the code is named (a commit, its uncommitted changes hashed): runs may be reused. */
  canReuse: boolean;
  outDir: string;
  /** Runs planned in the whole bench (for progress). */
  total: number;
  onRun?: BenchRunListener;
  runs: BenchRun[];
  reusedRuns: number;
}

/** One world with one seed: its project, ground truth and probe tasks, then every planned run on it. */
async function runWorldSeed(session: BenchSession, world: BenchWorld, seed: number): Promise<void> {
  const { options, engine, outDir } = session;
  const projectDir = path.join(outDir, "projects", `${safeName(world.name)}-seed${seed}`);
  const project = await engine.prepareProject({ world, seed, dir: projectDir });
  const truth = await readGroundTruth(project.groundTruthPath, { model: project.agentModel });
  const taskIds = probeTaskIds({
    heldout: project.heldoutTaskIds,
    size: options.probeSize,
    seed,
  });
  for (const plan of planRuns(options, world)) {
    const settings: SharedRunSettings = {
      seed,
      budgetRollouts: budgetRollouts(plan.budgetEvals, project.trainTasks),
      latencyScale: options.latencyScale,
      concurrency: options.concurrency,
      maxIterations: options.maxIterations,
      temperature: options.temperature,
    };
    const runDir = path.join(outDir, "runs", runFolder(world.name, seed, plan));
    const { code } = session;
    const key = runRecordKey({ world, seed, plan, settings, probeTaskIds: taskIds, code });
    const recorded = session.canReuse ? await readRunRecord(runDir, key) : undefined;
    if (recorded) {
      session.runs.push(recorded);
      session.reusedRuns += 1;
      session.onRun?.(recorded, session.runs.length - 1, session.total, true);
      continue;
    }
    const run = await measureRun(session, {
      world,
      seed,
      plan,
      settings,
      project,
      truth,
      taskIds,
      runDir,
    });
    if (reusableCode(code)) {
      await mkdir(runDir, { recursive: true });
      await writeRunRecord(runDir, { key, code, run });
    }
    session.runs.push(run);
    session.onRun?.(run, session.runs.length - 1, session.total, false);
  }
}

/** Runs one arm, then probes the harnesses it had in force (outside its clock), and scores it. */
async function measureRun(
  session: BenchSession,
  options: {
    world: BenchWorld;
    seed: number;
    plan: PlannedRun;
    settings: SharedRunSettings;
    project: PreparedProject;
    truth: GroundTruth;
    taskIds: string[];
    runDir: string;
  },
): Promise<BenchRun> {
  const { engine, clock } = session;
  const { world, plan, project, runDir } = options;
  const started = clock.now();
  const outcome = await engine.runStrategy({
    project,
    world,
    strategy: plan.strategy,
    refiner: plan.refiner,
    settings: options.settings,
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
          taskIds: options.taskIds,
        });
  return scoreRun({
    ...plan,
    world: world.name,
    seed: options.seed,
    budgetRollouts: options.settings.budgetRollouts,
    wallMs,
    outcome,
    probe,
    truth: options.truth,
  });
}

/** `bench.json`: the settings, the runs, their per-arm summary and comparisons, the bench's wall time (taken last). */
function assembleResult(input: {
  session: BenchSession;
  worlds: BenchWorld[];
  date?: Date;
  machine?: Machine;
  elapsedMs: () => number;
}): BenchResult {
  const { options, code, runs, reusedRuns } = input.session;
  return {
    version: 2,
    date: (input.date ?? new Date()).toISOString(),
    machine: input.machine ?? describeMachine(),
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
    worlds: input.worlds,
    runs,
    arms: summariseArms(runs),
    comparisons: computeComparisons(runs, {
      resamples: options.bootstrapResamples,
      seed: options.bootstrapSeed,
    }),
    benchWallMs: Math.round(input.elapsedMs()),
  };
}

async function currentCode(): Promise<BenchCode> {
  const { ecdysisVersion, gitState, packageRoot, uncommittedChanges } = await import(
    "../config/index.js"
  );
  const git = await gitState(packageRoot());
  const changes = git?.dirty ? await uncommittedChanges(packageRoot()) : undefined;
  return {
    version: ecdysisVersion(),
    commit: git?.commit,
    dirty: git?.dirty ?? false,
    ...(changes ? { changes } : {}),
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
