import type { LoopState, StrategyRun } from "./strategy.js";
import { withStrategyHooks } from "./strategy-hooks.js";

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
  return withStrategyHooks(run, {
    proposed(proposal, scope) {
      if (proposal.kind === "stop") say(`iteration ${scope.index}: stopped (${proposal.reason})`);
      return proposal;
    },
    decided({ proposal, verdict }) {
      const index = proposal.seen.index;
      if (proposal.kind === "refused") say(`iteration ${index}: refused (${proposal.reason})`);
      else
        say(
          `iteration ${index}: ${verdict.accepted ? "accepted" : "rejected"} (${verdict.reason})`,
        );
    },
  });
}
