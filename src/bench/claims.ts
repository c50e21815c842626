import { median } from "./bootstrap.js";
import { allWorlds, benchScopes, findComparison } from "./comparisons.js";
import { accommodationCheck, baselineSpendShare, fairBaselineCheck } from "./conduct-claims.js";
import type { BenchResult, BenchRun, Comparison, Estimate } from "./types.js";

/** The speed-up over the iterative baseline the paper reports, and our bar. */
export const paperSpeedup = 1.84;

/** The bar for the time-to-match counted in training rollouts (issue #27's must-show). */
export const rolloutSpeedup = 1.5;

/** The claims a bench checks. */
export type ClaimName =
  | "speedup"
  | "speedup-rollouts"
  | "mean-accuracy-over-time"
  | "total-time"
  | "heldout-vs-iterative"
  | "heldout-vs-sampling"
  | "no-accommodations"
  | "fair-baseline";

/**
 * `yes`: the whole 95% interval clears the bar; `inconclusive`: the median does but the
 * interval does not; `no`: the median misses it. Count claims are `yes` or `no`.
 */
export type Verdict = "yes" | "inconclusive" | "no";

/** One claim of the method checked against the figures of one scope at one budget. */
export interface ClaimCheck {
  scope: string;
  budgetEvals: number;
  claim: ClaimName;
  verdict: Verdict;
  /** The measured figure, as printed. */
  measured: string;
  /** Why it does not hold here (computed from the figures), when it does not. */
  explanation?: string;
}

const points = (value: number) => `${value >= 0 ? "+" : ""}${(value * 100).toFixed(1)} pp`;
const times = (value: number) => `${value.toFixed(2)}×`;

/** `median [low, high]` of an estimate with a formatter. */
export function formatEstimate(value: Estimate | null, format: (n: number) => string): string {
  if (!value) return "n/a";
  return `${format(value.median)} [${format(value.low)}, ${format(value.high)}]`;
}

/** The verdict of `figure ≥ bar` (or `> bar` when strict) from a median and its interval. */
export function verdictOf(value: Estimate, bar: number, strict = false): Verdict {
  const clears = (x: number) => (strict ? x > bar : x >= bar);
  if (!clears(value.median)) return "no";
  return clears(value.low) ? "yes" : "inconclusive";
}

/**
 * Checks the claims of DESIGN.md §6 at every budget, over all worlds and per world, with the
 * world's own refiner: held-out time-to-match ≥ 1.84× (in wall time; ≥ 1.5× counted in training
 * rollouts) and mean held-out accuracy over training
 * time above the baseline's (the speed claims), held-out accuracy at least the baseline's and
 * above sampling's, zero accommodations by Ecdysis — and that the baseline was run fairly (it
 * spent ≥ 80% of its budget or stopped because every train task passed). The ratio of total
 * training times is shown beside them (the arms stop for different reasons, so it is context).
 * A claim whose arms did not run is skipped.
 */
export function checkClaims(result: BenchResult): ClaimCheck[] {
  const checks: ClaimCheck[] = [];
  const scopes = benchScopes(result);
  for (const budgetEvals of result.settings.budgets) {
    for (const scope of scopes) checks.push(...claimsFor({ result, budgetEvals, scope }));
  }
  return checks;
}

function claimsFor(options: {
  result: BenchResult;
  budgetEvals: number;
  scope: string;
}): ClaimCheck[] {
  const { result, budgetEvals, scope } = options;
  const runs = result.runs.filter(
    (run) =>
      run.budgetEvals === budgetEvals &&
      run.refiner === "world" &&
      (scope === allWorlds || run.world === scope),
  );
  const iterative = findComparison(result.comparisons, {
    left: "ecdysis",
    right: "iterative",
    budgetEvals,
    scope,
  });
  const sampling = findComparison(result.comparisons, {
    left: "ecdysis",
    right: "sampling",
    budgetEvals,
    scope,
  });
  const base = { scope, budgetEvals };
  const checks: ClaimCheck[] = [];
  if (iterative) checks.push(...versusIterative({ comparison: iterative, runs, base }));
  const heldout = sampling?.figures.heldoutDiff;
  if (heldout) {
    const verdict = verdictOf(heldout, 0, true);
    checks.push({
      ...base,
      claim: "heldout-vs-sampling",
      verdict,
      measured: formatEstimate(heldout, points),
      explanation:
        verdict === "yes"
          ? undefined
          : "Spending the budget on repeated samples and a majority vote did as well as evolving the harness here.",
    });
  }
  const ecdysis = runs.filter((run) => run.strategy === "ecdysis");
  if (ecdysis.length > 0) checks.push(accommodationCheck(ecdysis, base));
  const baseline = runs.filter((run) => run.strategy === "iterative");
  if (baseline.length > 0) checks.push(fairBaselineCheck(baseline, base));
  return checks;
}

/** The scope and budget a claim check is made at. */
export type ClaimBase = { scope: string; budgetEvals: number };

/** The claims against the iterative baseline, in order: speed-up, accuracy over time, total time, held-out. */
function versusIterative(options: {
  comparison: Comparison;
  runs: BenchRun[];
  base: ClaimBase;
}): ClaimCheck[] {
  const { comparison, runs, base } = options;
  return [
    speedupCheck(comparison, runs, base),
    rolloutSpeedupCheck(comparison.figures, base),
    aucCheck(comparison.figures, base),
    totalTimeCheck(comparison.figures, base),
    heldoutVersusIterativeCheck(comparison.figures, base),
  ].filter((check): check is ClaimCheck => check !== undefined);
}

function speedupCheck(
  comparison: Comparison,
  runs: BenchRun[],
  base: ClaimBase,
): ClaimCheck | undefined {
  const f = comparison.figures;
  const counts = `${f.timeToMatch?.n ?? 0} pairs, ${f.timeToMatchNotReached} not reached (0×), ${f.timeToMatchNoTarget} without target`;
  if (f.timeToMatch) {
    const verdict = verdictOf(f.timeToMatch, paperSpeedup);
    return {
      ...base,
      claim: "speedup",
      verdict,
      measured: `${formatEstimate(f.timeToMatch, times)} (${counts})`,
      explanation: verdict === "yes" ? undefined : speedExplanation(comparison, runs),
    };
  }
  if (f.timeToMatchNoTarget === 0) return undefined;
  return {
    ...base,
    claim: "speedup",
    verdict: "no",
    measured: `n/a (${counts})`,
    explanation:
      "The baseline never rose above the seed harness on the held-out probe, so there was nothing to match.",
  };
}

/**
 * The time-to-match counted in training rollouts through the iteration that made each harness
 * current (the spend the budget bounds, which pipelining does not shorten), with the LLM-call
 * count beside it. Skipped when the runs recorded no spend (an older bench.json).
 */
function rolloutSpeedupCheck(f: Comparison["figures"], base: ClaimBase): ClaimCheck | undefined {
  const estimate = f.timeToMatchRollouts;
  if (!estimate) return undefined;
  const verdict = verdictOf(estimate, rolloutSpeedup);
  return {
    ...base,
    claim: "speedup-rollouts",
    verdict,
    measured: `${formatEstimate(estimate, times)} (${estimate.n} pairs; in LLM calls ${formatEstimate(f.timeToMatchLlmCalls, times)})`,
    explanation:
      verdict === "yes"
        ? undefined
        : `In wall time ${formatEstimate(f.timeToMatch, times)}; ${f.timeToMatchNotReached} pairs where Ecdysis never reached the baseline's best count 0× in every unit.`,
  };
}

function aucCheck(f: Comparison["figures"], base: ClaimBase): ClaimCheck | undefined {
  if (!f.aucDiff) return undefined;
  const verdict = verdictOf(f.aucDiff, 0, true);
  return {
    ...base,
    claim: "mean-accuracy-over-time",
    verdict,
    measured: formatEstimate(f.aucDiff, points),
    explanation:
      verdict === "yes"
        ? undefined
        : "Over the common training horizon the baseline's harnesses were on average as accurate on held-out tasks.",
  };
}

function totalTimeCheck(f: Comparison["figures"], base: ClaimBase): ClaimCheck | undefined {
  if (!f.wallRatio) return undefined;
  return {
    ...base,
    claim: "total-time",
    verdict: verdictOf(f.wallRatio, paperSpeedup),
    measured: formatEstimate(f.wallRatio, times),
    explanation: `Rollouts iterative / Ecdysis ${formatEstimate(f.rolloutsRatio, times)}; the arms stop for different reasons (Ecdysis when no systematic pattern is left, the baseline when its budget is spent or every train task passes).`,
  };
}

function heldoutVersusIterativeCheck(
  f: Comparison["figures"],
  base: ClaimBase,
): ClaimCheck | undefined {
  if (!f.heldoutDiff) return undefined;
  const verdict = verdictOf(f.heldoutDiff, 0);
  return {
    ...base,
    claim: "heldout-vs-iterative",
    verdict,
    measured: formatEstimate(f.heldoutDiff, points),
    explanation:
      verdict === "yes"
        ? undefined
        : verdict === "no"
          ? "The baseline's final harness was more accurate on the held-out split."
          : "The interval includes a loss: the final harnesses are about as accurate on held-out tasks.",
  };
}

function speedExplanation(comparison: Comparison, runs: BenchRun[]): string {
  const failed = comparison.pairs.filter((pair) => pair.timeToMatch?.status === "not-reached");
  const reached =
    failed.length === 0
      ? ""
      : ` Ecdysis never reached the baseline's best held-out accuracy on ${failed.map((pair) => `${pair.world} seed ${pair.seed}`).join(", ")} (0× each).`;
  const first = (strategy: string) =>
    median(
      runs
        .filter((run) => run.strategy === strategy && run.probe && run.probe.points.length > 1)
        .map((run) => run.probe?.points[1]?.elapsedMs ?? 0),
    );
  const e = first("ecdysis");
  const i = first("iterative");
  const steps =
    e === null || i === null
      ? ""
      : ` First change of harness (median): Ecdysis at ${(e / 1000).toFixed(2)} s, iterative at ${(i / 1000).toFixed(2)} s.`;
  return `Median held-out time-to-match ${formatEstimate(comparison.figures.timeToMatch, times)}.${reached}${steps}`.trim();
}

/** Readable name of a claim, for tables. */
export function claimLabel(claim: ClaimName): string {
  switch (claim) {
    case "speedup":
      return `held-out time-to-match iterative / Ecdysis ≥ ${paperSpeedup}×`;
    case "speedup-rollouts":
      return `held-out time-to-match in training rollouts iterative / Ecdysis ≥ ${rolloutSpeedup}×`;
    case "mean-accuracy-over-time":
      return "mean held-out accuracy over training time, Ecdysis − iterative > 0";
    case "total-time":
      return `total training time iterative / Ecdysis ≥ ${paperSpeedup}× (shown, not the claim)`;
    case "heldout-vs-iterative":
      return "final held-out accuracy Ecdysis − iterative ≥ 0";
    case "heldout-vs-sampling":
      return "final held-out accuracy Ecdysis − sampling > 0";
    case "no-accommodations":
      return "accommodations by Ecdysis = 0";
    case "fair-baseline":
      return `baseline spent ≥ ${baselineSpendShare * 100}% of its budget, passed every train task, or had nothing new to evaluate`;
  }
}
