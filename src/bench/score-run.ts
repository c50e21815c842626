import {
  ceilingFigures,
  heldoutCeiling,
  heldoutSystematicTasks,
  probeWithSpend,
} from "./ceiling.js";
import type { EvolveOutcome } from "./evolve-outcome.js";
import type { GroundTruth } from "./ground-truth.js";
import {
  findAccommodations,
  findIneffectiveEdits,
  meanPurity,
  patternPurities,
} from "./scoring.js";
import type { BenchRun, BenchStrategy, ProbeTrajectory, RefinerVariant } from "./types.js";

/** What one run is scored from. */
interface ScoreRunOptions {
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
}

/** Turns one evolve outcome into a bench run, scored against the world's ground truth. */
export function scoreRun(options: ScoreRunOptions): BenchRun {
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
    probe: probeWithSpend(options.probe, outcome.spentThrough),
    patternPurity: meanPurity(purities),
    patternsFound: outcome.patterns.length,
    ...ceilingFigures({
      ceiling: heldoutCeiling(truth),
      heldoutAccuracy: outcome.final.heldout.accuracy,
      probe: options.probe,
      spent: outcome.spentThrough,
    }),
    heldoutSystematicTasks: heldoutSystematicTasks(truth),
  };
}
