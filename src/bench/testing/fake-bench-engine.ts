import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { IterationSpend } from "../ceiling.js";
import type { BenchClock, BenchEngine, PreparedProject, SharedRunSettings } from "../engine.js";
import type { EvolveOutcome } from "../evolve-outcome.js";
import type { TaskTruth } from "../ground-truth.js";
import type { BenchStrategy, BenchWorld, ProbeTrajectory, RefinerVariant } from "../types.js";
import { probe } from "./bench-run.js";

/** A world the fake engine knows: its report entry and the ground truth it writes. */
export interface FakeWorld {
  world: BenchWorld;
  truth: TaskTruth[];
}

/** What the fake returns for one run, and the wall time it pretends the run took. */
export interface FakeRunReply {
  outcome: EvolveOutcome;
  /** Milliseconds the injected clock advances during the run. */
  elapsedMs: number;
  /** The held-out probe trajectory the bench will measure, as `[ms, accuracy]` steps. */
  probe?: [number, number][];
}

/** A manual clock the fake engine advances; pass it to `runBench` as its clock. */
export class ManualBenchClock {
  private current = 0;
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * Test double of the bench's engine: serves fixed worlds, writes their ground truth into the
 * prepared project, answers each run from a reply function and records every call. Unknown
 * worlds and unexpected runs (the reply function returns undefined) throw.
 */
export class FakeBenchEngine implements BenchEngine {
  readonly calls: {
    method: string;
    world: string;
    seed?: number;
    strategy?: BenchStrategy;
    refiner?: RefinerVariant;
    settings?: SharedRunSettings;
    taskIds?: string[];
  }[] = [];
  private readonly probes = new Map<string, [number, number][]>();
  /** Runs in progress; must never exceed 1 (the bench runs strictly one after another). */
  private running = 0;
  maxConcurrentRuns = 0;

  constructor(
    private readonly worlds: FakeWorld[],
    private readonly reply: (run: {
      world: string;
      seed: number;
      strategy: BenchStrategy;
      refiner: RefinerVariant;
      budgetRollouts: number;
    }) => FakeRunReply | undefined,
    readonly clock = new ManualBenchClock(),
  ) {}

  bundledWorlds(): string[] {
    return this.worlds.map((entry) => entry.world.name);
  }

  async describeWorld(nameOrPath: string): Promise<BenchWorld> {
    this.calls.push({ method: "describeWorld", world: nameOrPath });
    return this.find(nameOrPath).world;
  }

  async prepareProject(options: {
    world: BenchWorld;
    seed: number;
    dir: string;
  }): Promise<PreparedProject> {
    this.calls.push({ method: "prepareProject", world: options.world.name, seed: options.seed });
    const entry = this.find(options.world.name);
    await mkdir(options.dir, { recursive: true });
    const groundTruthPath = path.join(options.dir, "ground-truth.json");
    await writeFile(groundTruthPath, JSON.stringify({ tasks: entry.truth }));
    return {
      dir: options.dir,
      groundTruthPath,
      trainTasks: 20,
      heldoutTaskIds: Array.from({ length: 30 }, (_, index) => `h${index + 1}`),
    };
  }

  async runStrategy(options: {
    project: PreparedProject;
    world: BenchWorld;
    strategy: BenchStrategy;
    refiner: RefinerVariant;
    settings: SharedRunSettings;
    outDir: string;
    clock: BenchClock;
  }): Promise<EvolveOutcome> {
    const { world, strategy, refiner, settings } = options;
    this.calls.push({
      method: "runStrategy",
      world: world.name,
      seed: settings.seed,
      strategy,
      refiner,
      settings,
    });
    this.running += 1;
    this.maxConcurrentRuns = Math.max(this.maxConcurrentRuns, this.running);
    try {
      await new Promise((resolve) => setImmediate(resolve));
      const answer = this.reply({
        world: world.name,
        seed: settings.seed,
        strategy,
        refiner,
        budgetRollouts: settings.budgetRollouts,
      });
      if (!answer)
        throw new Error(
          `FakeBenchEngine: unexpected run ${world.name}/${settings.seed}/${strategy}`,
        );
      this.clock.advance(answer.elapsedMs);
      this.probes.set(
        options.outDir,
        answer.probe ?? [[0, answer.outcome.baseline.heldout.accuracy]],
      );
      return answer.outcome;
    } finally {
      this.running -= 1;
    }
  }

  async probe(options: Parameters<BenchEngine["probe"]>[0]): Promise<ProbeTrajectory> {
    this.calls.push({ method: "probe", world: options.world.name, taskIds: options.taskIds });
    const steps = this.probes.get(options.outDir);
    if (!steps)
      throw new Error(`FakeBenchEngine: probe of a run that did not happen (${options.outDir})`);
    return probe(steps, options.taskIds.length);
  }

  private find(name: string): FakeWorld {
    const entry = this.worlds.find((candidate) => candidate.world.name === name);
    if (!entry) throw new Error(`FakeBenchEngine: unknown world '${name}'`);
    return entry;
  }
}

/** An outcome with the given accuracies and costs, no patterns and no edits (override as needed). */
export function fakeOutcome(overrides: {
  heldout: number;
  train?: number;
  seedHeldout?: number;
  rollouts?: number;
  llmCalls?: number;
  /** Training wall time the outcome reports. */
  trainingWallMs?: number;
  patterns?: EvolveOutcome["patterns"];
  acceptedEdits?: EvolveOutcome["acceptedEdits"];
  trajectory?: EvolveOutcome["trajectory"];
  /** Seed accuracy where the trajectory starts (default: the seed held-out accuracy). */
  trajectorySeedAccuracy?: number | null;
  stoppedBy?: string;
  /** Training spend through each iteration (default: none recorded). */
  spentThrough?: IterationSpend[];
}): EvolveOutcome {
  const seedHeldout = overrides.seedHeldout ?? 0.5;
  const spend = {
    rollouts: overrides.rollouts ?? 100,
    llmCalls: overrides.llmCalls ?? 200,
    promptTokens: 1000,
    completionTokens: 100,
    wallMs: 0,
    refinementShare: 0.1,
  };
  return {
    baseline: {
      train: { accuracy: seedHeldout, n: 20 },
      heldout: { accuracy: seedHeldout, n: 20 },
    },
    final: {
      train: { accuracy: overrides.train ?? overrides.heldout, n: 20 },
      heldout: { accuracy: overrides.heldout, n: 20 },
    },
    training: { ...spend, wallMs: overrides.trainingWallMs ?? 0 },
    total: {
      ...spend,
      rollouts: spend.rollouts + 40,
      wallMs: (overrides.trainingWallMs ?? 0) + 100,
    },
    patterns: overrides.patterns ?? [],
    acceptedEdits: overrides.acceptedEdits ?? [],
    trajectory: overrides.trajectory ?? [],
    trajectorySeedAccuracy:
      overrides.trajectorySeedAccuracy === undefined
        ? seedHeldout
        : overrides.trajectorySeedAccuracy,
    stoppedBy: overrides.stoppedBy ?? "budget:rollouts",
    inForce: [{ iteration: 0, elapsedMs: 0, harnessHash: "seed" }],
    spentThrough: overrides.spentThrough ?? [],
  };
}
