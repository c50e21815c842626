import { median } from "./bootstrap.js";
import type { ClaimBase, ClaimCheck } from "./claims.js";
import type { BenchRun } from "./types.js";

// The claims about how the runs were conducted rather than what they measured: Ecdysis made
// no accommodations, and the baseline was given a fair run.

/** Share of its budget the baseline must spend (unless every train task passes) to count as fair. */
export const baselineSpendShare = 0.8;

/** No accommodations: every one a run of Ecdysis made, named. */
export function accommodationCheck(runs: BenchRun[], base: ClaimBase): ClaimCheck {
  const total = runs.reduce((sum, run) => sum + run.accommodations, 0);
  return {
    ...base,
    claim: "no-accommodations",
    verdict: total === 0 ? "yes" : "no",
    measured: `${total} in ${runs.length} runs`,
    explanation:
      total === 0
        ? undefined
        : runs
            .flatMap((run) =>
              run.accommodationReasons.map((reason) => `${run.world} seed ${run.seed}: ${reason}`),
            )
            .join("; "),
  };
}

/**
 * Whether a baseline run counts as fairly run: it spent ≥ 80% of its budget, passed every train
 * task, or stopped because two epochs of its reflections gave nothing new to evaluate
 * (`attempts-exhausted`: the reflector proposed nothing or repeated scored children — spending
 * the rest would buy cached repeats, as it does Ecdysis when it stops on the same reason). A cap
 * (`max-iterations`, `patience`) with budget left is not fair.
 */
export function spentFairly(run: BenchRun): boolean {
  return (
    run.stoppedBy === "no-failures" ||
    run.stoppedBy === "attempts-exhausted" ||
    run.rollouts >= baselineSpendShare * run.budgetRollouts
  );
}

/** The baseline was run fairly (`spentFairly`) in every run of the scope. */
export function fairBaselineCheck(runs: BenchRun[], base: ClaimBase): ClaimCheck {
  const unfair = runs.filter((run) => !spentFairly(run));
  const spent = median(runs.map((run) => run.rollouts / run.budgetRollouts)) ?? 0;
  const exhausted = runs.filter(
    (run) =>
      run.stoppedBy === "attempts-exhausted" &&
      run.rollouts < baselineSpendShare * run.budgetRollouts,
  ).length;
  const nothingNew = exhausted > 0 ? `; ${exhausted} stopped with nothing new to evaluate` : "";
  return {
    ...base,
    claim: "fair-baseline",
    verdict: unfair.length === 0 ? "yes" : "no",
    measured: `${runs.length - unfair.length} of ${runs.length} runs (median ${(spent * 100).toFixed(0)}% of budget spent${nothingNew})`,
    explanation:
      unfair.length === 0
        ? undefined
        : `Stopped early: ${unfair.map((run) => `${run.world} seed ${run.seed} (${run.stoppedBy}, ${run.unspentRollouts} of ${run.budgetRollouts} unspent)`).join("; ")}.`,
  };
}
