import { summariseTimeToMatch } from "./time-to-match.js";
import type { BenchResult, BenchRun, TimeToMatchPair } from "./types.js";

const seconds = (ms: number | null) => (ms === null ? "–" : `${(ms / 1000).toFixed(2)} s`);
const percent = (value: number | null) => (value === null ? "–" : `${(value * 100).toFixed(1)}%`);
const times = (value: number | null) => (value === null ? "n/a" : `${value.toFixed(2)}×`);

/** How the two speed figures are defined, for bench.md and the README section. */
export const speedDefinitions = [
  "*Time-to-match* (the speed claim): for each world × seed, A* is iterative's best train",
  "accuracy during its search; T_iter is iterative's training time when it first reached A*, and",
  "T_ecd Ecdysis's training time when it first reached ≥ A* (both read from the accuracy",
  "trajectory: the train accuracy of the current harness after every accepted step, timed on the",
  "run's training clock). Ratio T_iter / T_ecd. A pair where Ecdysis never reached A* is a failure",
  "of the claim and counts as 0×; a pair where iterative never rose above the seed harness has",
  "nothing to match and is left out (counted). *Total training time* is the whole search of each",
  "strategy: Ecdysis stops when no systematic pattern is left, iterative when its budget or",
  "iteration cap is spent, so that ratio compares different stopping rules, not speed to a quality.",
].join("\n");

/** One run's trajectory, compact: `seed% → 1.2 s 55.0% → 3.4 s 70.0%`. */
export function formatTrajectory(run: BenchRun | undefined): string {
  if (!run) return "–";
  const start = percent(run.trajectorySeedAccuracy);
  const steps = run.trajectory.map(
    (point) => `${seconds(point.elapsedMs)} ${percent(point.accuracy)}`,
  );
  return [start, ...steps].join(" → ");
}

function statusText(pair: TimeToMatchPair): string {
  switch (pair.status) {
    case "matched":
      return times(pair.ratio);
    case "not-reached":
      return "**not reached** (0×)";
    case "no-target":
      return "no target (iterative did not improve)";
    case "no-timing":
      return "no per-iteration times";
  }
}

/** Per-pair time-to-match table, with both trajectories. */
export function timeToMatchTable(result: BenchResult): string {
  const find = (pair: TimeToMatchPair, strategy: string) =>
    result.runs.find(
      (run) => run.world === pair.world && run.seed === pair.seed && run.strategy === strategy,
    );
  return [
    "| world | seed | A* (iterative's best train acc.) | T_iter | T_ecd | time-to-match | total-time ratio | iterative trajectory | Ecdysis trajectory |",
    "|---|---|---|---|---|---|---|---|---|",
    ...result.timeToMatch.map((pair) => {
      const iterative = find(pair, "iterative");
      const ecdysis = find(pair, "ecdysis");
      const total =
        iterative && ecdysis && ecdysis.wallMs > 0
          ? times(iterative.wallMs / ecdysis.wallMs)
          : "n/a";
      return `| ${pair.world} | ${pair.seed} | ${percent(pair.target)} | ${seconds(pair.iterativeMs)} | ${seconds(pair.ecdysisMs)} | ${statusText(pair)}${pair.fullTrainSplit ? "" : " (batch < train split)"} | ${total} | ${formatTrajectory(iterative)} | ${formatTrajectory(ecdysis)} |`;
    }),
  ].join("\n");
}

/** Per-world medians of the three speed figures side by side. */
export function speedByWorldTable(result: BenchResult): string {
  const rows = Object.entries(result.ratiosByWorld).map(([world, ratios]) => {
    const summary = summariseTimeToMatch(result.timeToMatch.filter((pair) => pair.world === world));
    return `| ${world} | ${times(summary.median)} | ${summary.pairs} / ${summary.failures} / ${summary.noTarget} | ${times(ratios.wallTimeIterativeOverEcdysis)} | ${times(ratios.rolloutsIterativeOverEcdysis)} |`;
  });
  return [
    "| world | time-to-match (median) | pairs / not matched / no target | total training time | rollouts |",
    "|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** The "Time to match" section of bench.md. */
export function timeToMatchSection(result: BenchResult): string {
  if (result.timeToMatch.length === 0) return "No world × seed had both Ecdysis and iterative.";
  return [speedDefinitions, speedByWorldTable(result), timeToMatchTable(result)].join("\n\n");
}
