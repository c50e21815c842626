import { formatPValue } from "../eval/statistics.js";
import { mcnemarOneSided, type PairedComparison, type SampleComparison } from "./paired-test.js";
import { targetedFlips, targetedPower } from "./targeted-test.js";
import { type Decision, decides, type ValidationStage } from "./validation.js";

// Where a proposal is accepted. Every decision of the loop — worth a full evaluation, accepted,
// kept after ablation, pruned, through the held-out gate — is one of the small criteria below,
// and each returns its decision with the reason the records show. `decide` reads a validation's
// evidence into the verdict on the proposal. Criteria for new statistics (temperature-0 models,
// other acceptance policies) go here, beside these; the held-out gates are in gate-criteria.ts.

function tally(comparison: PairedComparison): string {
  return `fixed ${comparison.fixed.length}, broken ${comparison.broken.length}`;
}

function fixesMoreThanItBreaks(comparison: PairedComparison): boolean {
  return comparison.fixed.length > comparison.broken.length;
}

/** Cheap validation: worth a full evaluation only when the candidate fixes more than it breaks. */
export function promising(cheap: PairedComparison): Decision {
  const fixed = cheap.fixed.length;
  const broken = cheap.broken.length;
  return fixesMoreThanItBreaks(cheap)
    ? { accepted: true, reason: `cheap validation: fixed ${fixed} > broken ${broken}` }
    : { accepted: false, reason: `cheap validation: fixed ${fixed} ≤ broken ${broken}` };
}

/** What the targeted test is told: the named tasks, and the fewest of them a fix must fix. */
export interface TargetedEvidence {
  /** Failing tasks under the parent that belong to the patterns the edit addressed. */
  targets: ReadonlySet<string>;
  /** A fix of a systematic pattern fixes at least this many of its members (`minSupport.tasks`). */
  minFixed: number;
}

/**
 * The full batch: a real improvement, not noise — fixed > broken, and either the one-sided exact
 * McNemar p below `alpha` (the flips lean one way beyond a fair coin) or, given the named tasks,
 * the targeted test's p below `alpha` with at least `minFixed` of them fixed (the fixes landed
 * on what the diagnosis named beyond the measured background of flips; targeted-test.ts).
 * Rejected on p alone, the flips may be re-drawn (`significantOverDraws`).
 */
export function significant(
  alpha: number,
  targeted?: TargetedEvidence,
): (full: PairedComparison) => Decision {
  return (full) => {
    if (!fixesMoreThanItBreaks(full))
      return { accepted: false, reason: `full batch: ${tally(full)}` };
    const p = formatPValue(full.pValue);
    if (full.pValue < alpha)
      return { accepted: true, reason: `${tally(full)}, ${p}, below alpha ${alpha}` };
    const fairCoin = `one-sided McNemar ${p} (needs < ${alpha})`;
    if (!targeted) return { accepted: false, reason: `full batch: ${tally(full)}, ${fairCoin}` };
    const test = targetedFlips(full, targeted.targets);
    const onTargets = `${test.fixedTargets} of ${test.targets} named task(s) fixed among ${test.flips} flip(s) of ${test.n}, targeted ${formatPValue(test.pValue)}`;
    if (test.pValue < alpha && test.fixedTargets >= targeted.minFixed)
      return { accepted: true, reason: `${tally(full)}; ${onTargets}, below alpha ${alpha}` };
    const short =
      test.fixedTargets < targeted.minFixed ? ` (a fix needs ≥ ${targeted.minFixed} named)` : "";
    return {
      accepted: false,
      reason: `full batch: ${tally(full)}, ${fairCoin}; ${onTargets}${short}`,
    };
  };
}

/**
 * The figures a full-batch verdict reports beside its p-values: the targeted test's measured
 * background and its power there — the chance it accepts a fix of every named task when the
 * other tasks flip at that rate — and the fair-coin test's best attainable p (every named task
 * fixed, nothing broken).
 */
export function verdictPower(
  full: PairedComparison,
  targeted: TargetedEvidence,
  alpha: number,
): Record<string, number> {
  const test = targetedFlips(full, targeted.targets);
  const round = (value: number) => Number(value.toPrecision(3));
  return {
    "named tasks": test.targets,
    "background flip rate": round(test.backgroundRate),
    "targeted power": round(
      targetedPower({
        n: test.n,
        targets: test.targets,
        backgroundRate: test.backgroundRate,
        alpha,
      }),
    ),
    "McNemar best p": round(mcnemarOneSided(test.targets, 0)),
  };
}

/** Whether a full batch rejected by `significant` is worth re-drawing: it fixed more than it broke. */
export function worthRedrawing(full: PairedComparison): boolean {
  return fixesMoreThanItBreaks(full);
}

/**
 * Why the flips of a full batch are not re-drawn, or undefined when they may be: a built-in
 * harness's agent at temperature 0 is deterministic (a real endpoint at 0 is, up to rare
 * ties; the sim is), so a re-draw would repeat the run. A command harness runs its own model at
 * a temperature Ecdysis does not set: its re-draws are made, and identical ones count once.
 */
export function deterministicAgent(config: {
  model: { temperature: number };
  harness: { kind: "builtin" | "command" };
}): string | undefined {
  if (config.harness.kind !== "builtin" || config.model.temperature !== 0) return undefined;
  return "the agent model runs at temperature 0, so a re-draw would repeat the run: the per-task test decides";
}

/** The per-task decision on a full batch whose flips were not re-drawn, with why not. */
export function notRedrawnDecision(perTask: Decision, why: string): Decision {
  return { accepted: perTask.accepted, reason: `${perTask.reason}; not re-drawn: ${why}` };
}

/**
 * Too few flips for a per-task test, re-drawn: accepted when, counted draw by draw (a pair that
 * repeats an earlier one word for word counted once), fixed > broken and the one-sided McNemar p
 * over the distinct draws is below `alpha`.
 */
export function significantOverDraws(
  alpha: number,
): (full: PairedComparison, draws: SampleComparison) => Decision {
  return (full, draws) => {
    const repeats = draws.repeats > 0 ? ` (${draws.repeats} identical repeat(s) counted once)` : "";
    const over = `over ${draws.pairs} draws of the flipped tasks${repeats}: fixed ${draws.fixed}, broken ${draws.broken}, ${formatPValue(draws.pValue)}`;
    if (draws.fixed > draws.broken && draws.pValue < alpha)
      return { accepted: true, reason: `${tally(full)}; ${over}, below alpha ${alpha}` };
    return { accepted: false, reason: `full batch: ${tally(full)}; ${over} (needs < ${alpha})` };
  };
}

/** Ablation: a change of a rejected bundle is kept when, alone on the parent, it fixes more than it breaks. */
export function helpsAlone(alone: { fixed: number; broken: number }): Decision {
  return {
    accepted: alone.fixed > alone.broken,
    reason: `alone it fixed ${alone.fixed} and broke ${alone.broken} of the tasks its bundle flipped`,
  };
}

/**
 * Ablation's outcome, a retry: when some changes of a rejected bundle help alone and some do
 * not, the helping ones are re-validated without the others (its reason joins the two
 * rejections when the rest is rejected too); otherwise there is nothing to retry.
 */
export function ablationRetry(changes: readonly { kept: boolean }[]): Decision {
  const kept = changes.filter((change) => change.kept).length;
  if (kept === 0) return { accepted: false, reason: "no change helps alone" };
  if (kept === changes.length)
    return { accepted: false, reason: "every change helps alone: none to drop" };
  return { accepted: true, reason: "without the changes that hurt alone" };
}

/**
 * Attribution: a change is pruned when it fixed none of its own patterns' failing members and
 * none of them fails differently now. A target that still fails, but with other deterministic
 * signals (`shifted`), shows the change acted on it and another failure masks the fix (a retry
 * hint whose retries now hit the step budget): the change stays, and the follow-up round looks
 * at what it exposed.
 */
export function fixedOwnTargets(change: {
  targets: number;
  fixed: number;
  shifted?: number;
  patternNames: string[];
}): Decision {
  if (change.fixed > 0)
    return { accepted: true, reason: `fixed ${change.fixed} of its ${change.targets} target(s)` };
  if ((change.shifted ?? 0) > 0)
    return {
      accepted: true,
      reason: `fixed none of its ${change.targets} target(s) yet, but ${change.shifted} now fail differently (masked by another failure)`,
    };
  return {
    accepted: false,
    reason: `fixed none of the ${change.targets} failing member(s) of ${change.patternNames.join(", ")} in cheap validation, and none fails differently`,
  };
}

/**
 * Pruning is undone — the changes that fixed none of their own targets stay — when the candidate
 * without them does worse on the cheap subset than with them (fewer fixed minus broken): a
 * change can help its bundle without fixing its own targets (it repairs what another change
 * breaks, or fixes tasks of another pattern, like a retry hint for a newly enabled tool).
 * Accepted: put back.
 */
export function worseWithout(withThem: PairedComparison, without: PairedComparison): Decision {
  const net = (comparison: PairedComparison) => comparison.fixed.length - comparison.broken.length;
  const counts = `without them cheap validation fixed ${without.fixed.length}, broke ${without.broken.length} (with them ${withThem.fixed.length} and ${withThem.broken.length})`;
  return net(without) < net(withThem)
    ? { accepted: true, reason: `put back: ${counts}` }
    : { accepted: false, reason: counts };
}

/** Pruning took out every change (or ran out of rounds): nothing is left to validate. */
export function nothingLeftAfterPruning(pruned: number): Decision {
  return {
    accepted: false,
    reason: `no change fixed any of its own pattern's failing members (${pruned} change(s) pruned)`,
  };
}

/** Pruning left edits that change nothing in the harness. */
export function unchangedAfterPruning(): Decision {
  return { accepted: false, reason: "after pruning, the edits leave the harness unchanged" };
}

/**
 * The iterative baseline's minibatch gate (GEPA's `StrictImprovementAcceptance`): the child's
 * summed score on the parent's reflection minibatch strictly above the parent's.
 */
export function betterOnMinibatch(before: number, after: number): Decision {
  return after > before
    ? { accepted: true, reason: `minibatch score ${after} > ${before}: worth a full evaluation` }
    : { accepted: false, reason: `minibatch score ${after} is not above the parent's ${before}` };
}

/**
 * GEPA's merge gate (`proposer/merge.py`): the merged candidate's summed score on the subsample
 * no lower than the better parent's there (from the parents' full evaluations).
 */
export function noWorseThanParents(parents: number, merged: number): Decision {
  return merged >= parents
    ? {
        accepted: true,
        reason: `merged subsample score ${merged} ≥ the parents' best ${parents}: worth a full evaluation`,
      }
    : {
        accepted: false,
        reason: `merged subsample score ${merged} is below the parents' best ${parents}`,
      };
}

/**
 * The iterative baseline's full evaluation: the child joins the Pareto pool either way; it
 * becomes the harness in force only when its train accuracy is strictly above the best's.
 */
export function aboveBest(best: number, child: number): Decision {
  return child > best
    ? { accepted: true, reason: `train accuracy ${child.toFixed(3)} > best ${best.toFixed(3)}` }
    : {
        accepted: false,
        reason: `train accuracy ${child.toFixed(3)} is not above the best ${best.toFixed(3)} (kept in the Pareto pool as a parent)`,
      };
}

/** The verdict on a proposal: accepted with the candidate that carried it, or rejected. */
export type Verdict =
  | { accepted: true; reason: string; candidateHash: string; accuracy: number }
  | { accepted: false; reason: string };

/**
 * Reads a validation's stages into the verdict, by their roles alone (validation.ts): the last
 * stage that decides — a screen, a pruning or a verdict — gives it; only an accepting verdict
 * accepts, with the candidate it names and that candidate's last measured accuracy. When a
 * retry (ablation) came before it, a rejection names the rejection before the retry too.
 */
export function decide(stages: readonly ValidationStage[]): Verdict {
  const last = stages.findLast(decides);
  if (!last) return { accepted: false, reason: "nothing was validated" };
  if (last.role === "verdict" && last.decision.accepted && last.candidateHash)
    return {
      accepted: true,
      reason: last.decision.reason,
      candidateHash: last.candidateHash,
      accuracy: accuracyOf(stages, last.candidateHash),
    };
  const retry = stages.findIndex((stage) => stage.role === "retry");
  if (retry >= 0 && retry < stages.indexOf(last))
    return {
      accepted: false,
      reason: `${decide(stages.slice(0, retry)).reason}; ${stages[retry].decision.reason}: ${last.decision.reason}`,
    };
  return { accepted: false, reason: last.decision.reason };
}

/** The candidate's accuracy, from the last stage that scored it. */
function accuracyOf(stages: readonly ValidationStage[], candidateHash: string): number {
  const scored = stages.findLast(
    (stage) => stage.candidateHash === candidateHash && stage.score !== undefined,
  );
  return scored?.score?.accuracy ?? Number.NaN;
}
