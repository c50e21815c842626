import type { LoopState, StrategyRun } from "./strategy.js";

/**
 * A strategy run that says each iteration's verdict as it is reached — `iteration 2: accepted
 * (…, p = 0.01, below alpha 0.05)`, `rejected (…)`, `refused (…)`, `stopped (…)` — for the live
 * status and plain-line logs, so a run never goes by without saying what it decided and why.
 */
export function announceIterations<S extends LoopState>(
  run: StrategyRun<S>,
  say: ((line: string) => void) | undefined,
): StrategyRun<S> {
  if (!say) return run;
  return {
    start: (seed) => run.start(seed),
    ...(run.stop ? { stop: (state: S) => run.stop?.(state) } : {}),
    async propose(state, index) {
      const proposal = await run.propose(state, index);
      if (proposal.kind === "stop") say(`iteration ${index}: stopped (${proposal.reason})`);
      return proposal;
    },
    validate: (proposal, state) => run.validate(proposal, state),
    next(state, step) {
      const index = step.proposal.seen.index;
      const { verdict, proposal } = step;
      if (proposal.kind === "refused") say(`iteration ${index}: refused (${proposal.reason})`);
      else
        say(
          `iteration ${index}: ${verdict.accepted ? "accepted" : "rejected"} (${verdict.reason})`,
        );
      return run.next(state, step);
    },
    ...(run.finalSamples === undefined ? {} : { finalSamples: run.finalSamples }),
  };
}
