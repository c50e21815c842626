import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { deterministicAgent } from "../acceptance.js";
import { exhaustedReason } from "../memory.js";
import type { RunContext } from "../run-context.js";
import type { Observation, Proposal } from "../strategy.js";
import { affordable } from "./ecdysis-budget.js";
import type { ObservingState } from "./ecdysis-propose.js";
import type { EcdysisData } from "./ecdysis-validate.js";

// How an ecdysis proposal ends when there is nothing to refine: a stop, or — with budget left and
// something not yet observed — a refusal that asks the next iteration to observe more.

/** The reason an observe-more proposal gives (ecdysis.ts reads it back to set `observeFresh`). */
export const observeMoreReason = "observing more before stopping";

/**
 * Before stopping with budget left, observe more: when train tasks not yet observed on this
 * harness remain and the budget affords a batch and its validation, the proposal is refused
 * (nothing to validate) and the next one draws those tasks. Otherwise the stop stands, its
 * reason saying what was left unspent and why.
 */
export function stopOrObserveMore(
  options: { context: RunContext; state: ObservingState },
  seen: Observation,
  stop: Extract<Proposal<EcdysisData>, { kind: "stop" }>,
): Proposal<EcdysisData> {
  const { context, state } = options;
  const observed = new Set([...(state.observed ?? []), ...seen.batch.tasks.map((task) => task.id)]);
  const unseen = context.train.length - observed.size;
  const left = context.rolloutsLeft?.();
  if (left === undefined || left === 0) return stop;
  const batch = Math.min(context.config.evolve.ecdysis.batchSize, context.train.length);
  if (unseen > 0 && affordable(context, 2 * batch))
    return {
      kind: "refused",
      seen,
      targets: [],
      data: { addressed: [] },
      reason: `${observeMoreReason}: ${stop.reason}; ${unseen} train task(s) not yet observed on this harness and ${left} rollouts left`,
    };
  const deterministic = deterministicAgent(context.config) !== undefined;
  const fresh = !deterministic && !state.freshRoundDone;
  if (unseen === 0 && fresh && affordable(context, 2 * batch))
    return {
      kind: "refused",
      seen,
      targets: [],
      data: { addressed: [], freshSamples: true },
      reason: `${observeMoreReason}: ${stop.reason}; every train task has been observed on this harness, so fresh samples of them (round ${(state.sampleRound ?? 0) + 1}) with ${left} rollouts left`,
    };
  const why =
    unseen > 0
      ? `${unseen} train task(s) not yet observed, but a batch and its validation (~${2 * batch} rollouts) do not fit`
      : deterministic
        ? "every train task has been observed on this harness, and fresh samples of a deterministic agent would repeat them"
        : state.freshRoundDone
          ? "every train task has been observed on this harness, and a round of fresh samples of them found nothing new to fix"
          : `every train task has been observed on this harness, and a batch of fresh samples and its validation (~${2 * batch} rollouts) do not fit`;
  return { ...stop, reason: `${stop.reason}; ${left} training rollouts left unspent: ${why}` };
}

/**
 * The stop when nothing is left to attempt: the systematic patterns that remain have used their
 * attempts (`attempts-exhausted`, the reason names them), or the batch has none.
 */
export function stopWithout(options: {
  seen: Observation;
  found: FailurePattern[];
  state: ObservingState;
  maxAttempts: number;
}): Extract<Proposal<EcdysisData>, { kind: "stop" }> {
  const { seen } = options;
  const spent = exhaustedReason(options.found, options.state.memory, {
    maxAttempts: options.maxAttempts,
    harnessHash: seen.parent.hash,
    sampleRound: options.state.sampleRound,
  });
  if (spent) return { kind: "stop", seen, stoppedBy: "attempts-exhausted", reason: spent };
  return {
    kind: "stop",
    seen,
    stoppedBy: "no-systematic-pattern",
    reason: "no systematic pattern in this batch (the patterns found are reported, not repaired)",
  };
}
