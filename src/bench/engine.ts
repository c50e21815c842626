import type { EvolveOutcome, InForcePoint } from "./evolve-outcome.js";
import type { BenchStrategy, BenchWorld, ProbeTrajectory, RefinerVariant } from "./types.js";

/** A project generated from one world with one seed, ready for `runEvolve`. */
export interface PreparedProject {
  /** Folder holding the generated tasks, seed harness, world file and ground truth (the bench's own). */
  dir: string;
  /** The per-task ground truth; read only by the bench's scoring. */
  groundTruthPath: string;
  /** The agent's model name (the sim keys per-item slips by it; ground truth lists them per model). */
  agentModel?: string;
  /** Train split size (the budget is a number of full-split evaluations of it). */
  trainTasks: number;
  /** Held-out task ids, in file order (the probe set is drawn from them). */
  heldoutTaskIds: string[];
}

/** The settings every arm of a bench shares (same budget, latency model, concurrency). */
export interface SharedRunSettings {
  seed: number;
  budgetRollouts: number;
  /** Factor on the sim's latency model; undefined: the world's own scale. */
  latencyScale?: number;
  concurrency: number;
  maxIterations: number;
  /** The agent's (and refiner's) sampling temperature. */
  temperature: number;
}

/**
 * What the bench needs from the sim and the evolution engine. The real implementation wires
 * `src/sim` and `src/evolve` (`simEngine`); tests inject a double (`src/bench/testing`).
 */
export interface BenchEngine {
  /** Names of the bundled worlds (the default set). */
  bundledWorlds(): string[];
  /** Resolves a bundled world name or a world file path to its reported parameters. */
  describeWorld(nameOrPath: string): Promise<BenchWorld>;
  /** Generates the world's files with the given seed into `dir`. */
  prepareProject(options: {
    world: BenchWorld;
    seed: number;
    dir: string;
  }): Promise<PreparedProject>;
  /**
   * Runs one arm on a private copy of a prepared project (its own rollout cache, so no arm is
   * served another's rollouts), the sim playing the given refiner assumptions, and returns what
   * the bench scores.
   */
  runStrategy(options: {
    project: PreparedProject;
    world: BenchWorld;
    strategy: BenchStrategy;
    refiner: RefinerVariant;
    settings: SharedRunSettings;
    outDir: string;
    /** The bench's clock; the run times its training with it. */
    clock: BenchClock;
  }): Promise<EvolveOutcome>;
  /**
   * Measures every harness that was in force during the run in `outDir` on the probe tasks
   * (held-out, the same for every arm of the project), outside the run's clock and budget.
   */
  probe(options: {
    project: PreparedProject;
    world: BenchWorld;
    refiner: RefinerVariant;
    outDir: string;
    inForce: InForcePoint[];
    taskIds: string[];
  }): Promise<ProbeTrajectory>;
}

/** A monotonic millisecond clock; injected so tests do not depend on wall time. */
export interface BenchClock {
  now(): number;
}

/** The real monotonic clock. */
export const systemBenchClock: BenchClock = { now: () => performance.now() };
