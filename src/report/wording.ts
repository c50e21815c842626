import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { EvolveResult, StopReason } from "../evolve/result-schema.js";

/** `1 category`, `3 categories` (the plural defaults to singular + "s"). */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/**
 * Text written with `(s)` plurals (`3 change(s)`, `1 diagnosis(es)`, as the role summaries of
 * src/refine are) in proper words: `3 changes`, `1 diagnosis`.
 */
export function resolvePlurals(text: string): string {
  return text.replace(
    /\b(\d+) ((?:[A-Za-z-]+ ){0,2}[A-Za-z-]+)\((s|es)\)/g,
    (_match, count: string, word: string, suffix: string) =>
      count === "1" ? `${count} ${word}` : `${count} ${word}${suffix}`,
  );
}

/** How a report names a pattern's standing (its `kind` plus why it is not repaired). */
export type PatternStanding =
  | "systematic"
  | "model-specific"
  | "insufficient support"
  | "unknown task"
  | "not repaired";

/** The reason codes of a pattern (`narrow`, `flaky`, …). */
function reasonCodes(reasons: FailurePattern["reasons"]): Set<string> {
  return new Set(reasons.map((reason) => reason.code));
}

/**
 * A pattern's standing in words. "model-specific" only when re-sampling (`flaky`) or a probe
 * model (`model-only`) showed it; a pattern below the support threshold has "insufficient
 * support" (nothing showed it to be the model's); "unknown task" when the model said it does
 * not know how to do the tasks.
 */
export function patternStanding(
  pattern: Pick<FailurePattern, "kind" | "reasons">,
): PatternStanding {
  if (pattern.kind === "systematic") return "systematic";
  const codes = reasonCodes(pattern.reasons);
  if (codes.has("unknown-task")) return "unknown task";
  if (codes.has("flaky") || codes.has("model-only")) return "model-specific";
  if (codes.has("singleton") || codes.has("narrow")) return "insufficient support";
  return "not repaired";
}

/** Counts of an evolve run: iterations, proposals tried, accepted proposals and their edits. */
export function proposalTally(result: Pick<EvolveResult, "iterations" | "acceptedEdits">) {
  const proposals = result.iterations.filter(
    (iteration) => iteration.verdict === "accepted" || iteration.verdict === "rejected",
  ).length;
  const accepted = result.iterations.filter((iteration) => iteration.verdict === "accepted").length;
  return {
    // A follow-up (a repair round) is a proposal of its iteration, not an iteration of its own.
    iterations: new Set(result.iterations.map((iteration) => iteration.index)).size,
    proposals,
    accepted,
    edits: result.acceptedEdits.length,
  };
}

/**
 * The one sentence every surface uses for what was accepted, e.g. `5 accepted edits in 3
 * accepted proposals (3 proposals over 4 iterations)`: "accepted edits" always counts edits.
 */
export function acceptedSentence(result: Pick<EvolveResult, "iterations" | "acceptedEdits">) {
  const tally = proposalTally(result);
  return `${plural(tally.edits, "accepted edit")} in ${plural(tally.accepted, "accepted proposal")} (${plural(tally.proposals, "proposal")} over ${plural(tally.iterations, "iteration")})`;
}

const stopWords: Record<Exclude<StopReason, `budget:${string}`>, string> = {
  "no-failures": "every task of the batch passed",
  "no-systematic-pattern": "no systematic pattern found",
  "attempts-exhausted": "every systematic pattern left has used its attempts",
  "max-iterations": "evolve.maxIterations reached",
  patience: "evolve.iterative.patience proposals in a row without improvement",
  "no-evolution": "no evolution (sampling baseline)",
  "agent-unusable": "the agent model gave no usable reply",
  "refiner-unusable": "the refiner model gave no usable reply",
};

const budgetWords: Record<string, string> = {
  rollouts: "rollout",
  tokens: "token",
  costUsd: "cost",
  wallMs: "wall-time",
};

/**
 * Why the run stopped, in words: the stopping iteration's own reason when it has one (it names
 * the patterns left), else the stop code's meaning.
 */
export function stopSentence(result: Pick<EvolveResult, "iterations" | "stoppedBy">): string {
  const last = result.iterations.at(-1);
  if (last?.verdict === "stopped" && last.reason) return `stopped: ${last.reason}`;
  const code = result.stoppedBy;
  if (code.startsWith("budget:")) {
    const resource = code.slice("budget:".length);
    return `stopped: the ${budgetWords[resource] ?? resource} budget is spent`;
  }
  return `stopped: ${stopWords[code as keyof typeof stopWords] ?? code}`;
}

/** `finished 2030-01-02 03:04 UTC · Ecdysis 0.1.0 · commit 0123456 (uncommitted changes) · --limit 20`; undefined without metadata. */
export function runSentence(result: Pick<EvolveResult, "run">): string | undefined {
  const run = result.run;
  if (!run) return undefined;
  const parts = [`finished ${run.finishedAt.replace("T", " ").slice(0, 16)} UTC`];
  if (run.ecdysisVersion) parts.push(`Ecdysis ${run.ecdysisVersion}`);
  if (run.git)
    parts.push(
      `commit ${run.git.commit.slice(0, 7)}${run.git.dirty ? " (uncommitted changes)" : ""}`,
    );
  if (run.limit !== undefined) parts.push(`--limit ${run.limit} (a quick subset)`);
  return parts.join(" · ");
}

/**
 * What the budget covered, in one sentence for the cost section (report, PR body, job summary):
 * the limits, and whether the seed/final measurement ran inside them. Undefined for a result
 * written before it was recorded.
 */
export function budgetSentence(result: Pick<EvolveResult, "budget">): string | undefined {
  const budget = result.budget;
  if (!budget) return undefined;
  const limits = [
    budget.rollouts === undefined ? "" : plural(budget.rollouts, "rollout"),
    budget.tokens === undefined ? "" : plural(budget.tokens, "token"),
    budget.costUsd === undefined ? "" : `$${budget.costUsd}`,
    budget.wallMs === undefined ? "" : `${budget.wallMs / 1000} s`,
  ].filter(Boolean);
  const measurement = `the seed and final measurement (at most ${plural(budget.measurementRollouts, "rollout")})`;
  if (limits.length === 0)
    return `Budget: none set; the search ran until its own stop, then ${measurement}.`;
  if (budget.scope === "run")
    return `Budget (whole run): ${limits.join(", ")} bound everything, ${measurement} included — its rollouts were kept free while the search ran.`;
  return `Budget (search only): ${limits.join(", ")} bound the search; ${measurement} ran outside it (set evolve.budget.scope: run to bound the whole run).`;
}
