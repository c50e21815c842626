import { median } from "./bootstrap.js";
import { formatEstimate } from "./claims.js";
import { allWorlds, benchScopes, findComparison } from "./comparisons.js";
import type { BenchResult, BenchRun, Comparison, Match, ProbeTrajectory } from "./types.js";

/** Formatters shared by the report and the README section. */
export const formatters = {
  seconds: (ms: number) => `${(ms / 1000).toFixed(1)} s`,
  count: (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1)),
  accuracy: (n: number) => `${(n * 100).toFixed(1)}%`,
  share: (n: number) => `${(n * 100).toFixed(0)}%`,
  ratio: (n: number) => `${n.toFixed(2)}×`,
  points: (n: number) => `${n >= 0 ? "+" : ""}${(n * 100).toFixed(1)} pp`,
};

/** How the speed figures are defined, for bench.md and the README section. */
export const speedDefinitions = [
  "*Held-out time-to-match* (the speed claim): the bench — never the pipeline — measures every",
  "harness each run had in force on a fixed probe set drawn from the held-out split (the same",
  "tasks for both arms of a world × seed), timed on the run's training clock. A* is the baseline's",
  "best probe accuracy; T_iter its training time when it first reached A*, T_ecd Ecdysis's when it",
  "first reached ≥ A*; the figure is T_iter / T_ecd (a pair where Ecdysis never reached A* counts",
  "as 0×; a pair where the baseline never rose above the seed harness has no target and is left",
  "out, counted). *Reverse*: the baseline's time to Ecdysis's best over Ecdysis's, over the pairs",
  "where the baseline got there at all. *Mean accuracy over time*: the area under probe accuracy",
  "versus training time over the longer run's training time, divided by it (a stopped run keeps",
  "its last harness), Ecdysis − baseline. Every figure is the median over world × seed pairs with",
  "a bootstrap 95% interval (pairs resampled within each world, seeded).",
].join("\n");

const f = formatters;

function matchCounts(comparison: Comparison): string {
  const x = comparison.figures;
  return `${x.timeToMatch?.n ?? 0} / ${x.timeToMatchNotReached} / ${x.timeToMatchNoTarget}`;
}

function reverseText(comparison: Comparison): string {
  const x = comparison.figures;
  const of = x.reverseReached + x.reverseNotReached;
  const reached = `${x.reverseReached} of ${of}`;
  return x.reverseTimeToMatch
    ? `${reached}: ${formatEstimate(x.reverseTimeToMatch, f.ratio)}`
    : reached;
}

function armMedian(runs: BenchRun[], pick: (run: BenchRun) => number): string {
  const value = median(runs.map(pick));
  return value === null ? "–" : f.accuracy(value);
}

/** Ecdysis versus the baseline at one budget: one row for all worlds, then one per world. */
export function headlineTable(result: BenchResult, budgetEvals: number): string {
  const scopes = benchScopes(result);
  const rows = scopes.flatMap((scope) => {
    const iterative = findComparison(result.comparisons, {
      left: "ecdysis",
      right: "iterative",
      budgetEvals,
      scope,
    });
    if (!iterative) return [];
    const sampling = findComparison(result.comparisons, {
      left: "ecdysis",
      right: "sampling",
      budgetEvals,
      scope,
    });
    const runs = result.runs.filter(
      (run) =>
        run.budgetEvals === budgetEvals &&
        run.refiner === "world" &&
        (scope === allWorlds || run.world === scope),
    );
    const x = iterative.figures;
    const heldout = `${armMedian(
      runs.filter((run) => run.strategy === "ecdysis"),
      (run) => run.heldoutAccuracy,
    )} / ${armMedian(
      runs.filter((run) => run.strategy === "iterative"),
      (run) => run.heldoutAccuracy,
    )}`;
    return [
      `| ${scope} | ${formatEstimate(x.timeToMatch, f.ratio)} | ${matchCounts(iterative)} | ${reverseText(iterative)} | ${formatEstimate(x.aucDiff, f.points)} | ${formatEstimate(x.wallRatio, f.ratio)} | ${formatEstimate(x.rolloutsRatio, f.ratio)} | ${heldout} | ${formatEstimate(x.heldoutDiff, f.points)} | ${formatEstimate(sampling?.figures.heldoutDiff ?? null, f.points)} |`,
    ];
  });
  return [
    "| scope | held-out time-to-match iterative / Ecdysis | pairs / not reached / no target | iterative reached Ecdysis's best (time ratio) | mean held-out acc. over time, Ecdysis − iterative | training time iterative / Ecdysis | rollouts iterative / Ecdysis | final held-out acc. Ecdysis / iterative (median) | final held-out Ecdysis − iterative | final held-out Ecdysis − sampling |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/** How each arm stopped and what it left of its budget, per budget and world. */
export function budgetUseTable(result: BenchResult): string {
  const groups = new Map<string, BenchRun[]>();
  for (const run of result.runs) {
    if (run.strategy === "sampling") continue;
    const key = `${run.budgetEvals}\u0000${run.world}\u0000${run.refiner}\u0000${run.strategy}`;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const rows = [...groups.values()].map((runs) => {
    const first = runs[0];
    const stops = new Map<string, number>();
    for (const run of runs) stops.set(run.stoppedBy, (stops.get(run.stoppedBy) ?? 0) + 1);
    const stopped = [...stops].map(([reason, count]) => `${reason} ×${count}`).join(", ");
    const unspent = runs.map((run) => run.unspentRollouts);
    const spent = median(runs.map((run) => run.rollouts / run.budgetRollouts)) ?? 0;
    const refiner = first.refiner === "neutral" ? " (neutral refiner)" : "";
    return `| ${first.budgetEvals} (${first.budgetRollouts} rollouts) | ${first.world}${refiner} | ${first.strategy} | ${stopped} | ${f.share(spent)} | ${median(unspent)} (max ${Math.max(...unspent)}) |`;
  });
  return [
    "| budget (full-split evaluations) | world | arm | stopped by (runs) | budget spent (median) | rollouts unspent (median, max) |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

/**
 * The decomposition at one budget: per world, Ecdysis − iterative with the world's refiner and
 * with a neutral one (what the refiner assumptions contribute), and Ecdysis with its pipelining
 * off (what pipelining contributes, and how the serial Ecdysis fares against the baseline).
 */
export function decompositionTable(result: BenchResult, budgetEvals: number): string {
  const scopes = benchScopes(result);
  const cell = (comparison: Comparison | undefined, pick: (c: Comparison) => string) =>
    comparison ? pick(comparison) : "–";
  const rows = scopes.map((scope) => {
    const find = (
      left: "ecdysis" | "ecdysis-serial",
      right: "iterative" | "ecdysis-serial",
      refiner: "world" | "neutral",
    ) => findComparison(result.comparisons, { left, right, budgetEvals, refiner, scope });
    const standard = find("ecdysis", "iterative", "world");
    const neutral = find("ecdysis", "iterative", "neutral");
    const serial = find("ecdysis", "ecdysis-serial", "world");
    const serialVsIterative = find("ecdysis-serial", "iterative", "world");
    const ttm = (c: Comparison) => formatEstimate(c.figures.timeToMatch, f.ratio);
    const held = (c: Comparison) => formatEstimate(c.figures.heldoutDiff, f.points);
    return `| ${scope} | ${cell(standard, ttm)} | ${cell(neutral, ttm)} | ${cell(standard, held)} | ${cell(neutral, held)} | ${cell(serial, (c) => formatEstimate(c.figures.wallRatio, f.ratio))} | ${cell(serialVsIterative, ttm)} | ${cell(serialVsIterative, held)} |`;
  });
  return [
    "| scope | time-to-match, world's refiner | time-to-match, neutral refiner | held-out Ecdysis − iterative, world's refiner | held-out, neutral refiner | training time Ecdysis serial / pipelined | time-to-match iterative / serial Ecdysis | held-out serial Ecdysis − iterative |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

function trajectoryText(probe: ProbeTrajectory | null | undefined): string {
  if (!probe) return "–";
  return probe.points
    .map((point, index) =>
      index === 0
        ? f.accuracy(point.accuracy)
        : `${(point.elapsedMs / 1000).toFixed(2)} s ${f.accuracy(point.accuracy)}`,
    )
    .join(" → ");
}

function matchText(match: Match | null): string {
  if (!match) return "–";
  if (match.status === "no-target") return "no target";
  if (match.status === "not-reached")
    return match.ratio === 0 ? "**not reached** (0×)" : "not reached";
  return f.ratio(match.ratio ?? 0);
}

/** Per pair at one budget: the target, both times, both figures and both probe trajectories. */
export function pairTable(result: BenchResult, budgetEvals: number): string {
  const comparison = findComparison(result.comparisons, {
    left: "ecdysis",
    right: "iterative",
    budgetEvals,
  });
  if (!comparison) return "No world × seed had both Ecdysis and iterative at this budget.";
  const find = (world: string, seed: number, strategy: string) =>
    result.runs.find(
      (run) =>
        run.budgetEvals === budgetEvals &&
        run.refiner === "world" &&
        run.world === world &&
        run.seed === seed &&
        run.strategy === strategy,
    );
  const seconds = (ms: number | null | undefined) =>
    ms === null || ms === undefined ? "–" : `${(ms / 1000).toFixed(2)} s`;
  return [
    "| world | seed | A* (iterative's best probe acc.) | T_iter | T_ecd | time-to-match | reverse | mean acc. over time, E − I | iterative probe trajectory | Ecdysis probe trajectory |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...comparison.pairs.map((pair) => {
      const m = pair.timeToMatch;
      const timed = m && m.status !== "no-target" ? m : undefined;
      return `| ${pair.world} | ${pair.seed} | ${m ? f.accuracy(m.target) : "–"} | ${seconds(timed?.rightMs)} | ${seconds(timed?.leftMs)} | ${matchText(m)} | ${matchText(pair.reverse)} | ${pair.aucDiff === null ? "–" : f.points(pair.aucDiff)} | ${trajectoryText(find(pair.world, pair.seed, "iterative")?.probe)} | ${trajectoryText(find(pair.world, pair.seed, "ecdysis")?.probe)} |`;
    }),
  ].join("\n");
}

/** What the iterative arm is, in one paragraph (the README and bench.md both say it). */
export const baselineLine =
  "The `iterative` arm is GEPA's defaults reimplemented (choice by choice against GEPA's files: [docs/bench/gepa-baseline.md](docs/bench/gepa-baseline.md)): a parent drawn from the Pareto front of per-task train scores, an epoch-shuffled reflection minibatch of 3 it fails on, the child scored on that minibatch and fully evaluated only when strictly better there, every fully evaluated child kept as a possible parent, rejections remembered on their parent, no cap but the budget; every module editable per reflection (GEPA's `all` selector — round-robin over our typed modules discards most fixes), the same concurrency, caches and budget accounting as Ecdysis.";
