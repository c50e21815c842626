import type { IterationScope } from "./run-scope.js";
import type { LoopState, LoopStep, Proposal, StrategyRun } from "./strategy.js";

/**
 * A strategy run with a look at (or a replacement of) each proposal and each decided step, every
 * other part forwarded as it is: the loop's wrappers (silent-end.ts, iteration-lines.ts) stay
 * independent of the strategies they wrap.
 */
export function withStrategyHooks<S extends LoopState>(
  run: StrategyRun<S>,
  hooks: {
    proposed?: (proposal: Proposal, scope: IterationScope) => Proposal;
    decided?: (step: LoopStep) => void;
  },
): StrategyRun<S> {
  return {
    start: (seed) => run.start(seed),
    ...(run.stop ? { stop: (state: S) => run.stop?.(state) } : {}),
    ...(run.followUp ? { followUp: (state: S) => run.followUp?.(state) } : {}),
    async propose(state, scope) {
      const proposal = await run.propose(state, scope);
      return hooks.proposed ? hooks.proposed(proposal, scope) : proposal;
    },
    validate: (proposal, state, scope) => run.validate(proposal, state, scope),
    next(state, step) {
      hooks.decided?.(step);
      return run.next(state, step);
    },
    ...(run.finalSamples === undefined ? {} : { finalSamples: run.finalSamples }),
  };
}
