import { silentEnd } from "../refine/silent-end.js";
import type { EvolveResult, StopReason } from "./result-schema.js";
import type { LoopState, Proposal, StrategyRun } from "./strategy.js";

/** Stops that mean the run could not do its job: the agent or the refiner never answered. */
export const silentStops: readonly StopReason[] = ["agent-unusable", "refiner-unusable"];

/**
 * A strategy run that stops, naming the cause, when an iteration heard nothing usable from the
 * agent or the refiner (src/refine `silentEnd`: the counts per role and kind, and the fix), instead
 * of paying for the same again and ending as if the search had run its course.
 */
export function stopWhenSilent<S extends LoopState>(run: StrategyRun<S>): StrategyRun<S> {
  return {
    start: (seed) => run.start(seed),
    ...(run.stop ? { stop: (state: S) => run.stop?.(state) } : {}),
    async propose(state, index): Promise<Proposal> {
      const proposal = await run.propose(state, index);
      if (proposal.kind === "stop" && proposal.stoppedBy === "no-failures") return proposal;
      const silent = silentEnd({
        records: proposal.seen.batch.run.records,
        diagnosis: proposal.seen.diagnosis,
        refinement: proposal.kind === "stop" ? undefined : proposal.refinement,
      });
      return silent ? { kind: "stop", seen: proposal.seen, ...silent } : proposal;
    },
    validate: (proposal, state) => run.validate(proposal, state),
    next: (state, step) => run.next(state, step),
    ...(run.finalSamples === undefined ? {} : { finalSamples: run.finalSamples }),
  };
}

/** True when a run ended because the agent or the refiner never answered, and learned nothing. */
export function learnedNothing(result: Pick<EvolveResult, "stoppedBy" | "acceptedEdits">): boolean {
  return silentStops.includes(result.stoppedBy) && result.acceptedEdits.length === 0;
}
