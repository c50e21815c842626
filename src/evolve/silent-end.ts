import { silentEnd } from "../refine/silent-end.js";
import { announceIterations } from "./iteration-lines.js";
import type { SearchHandoff } from "./phase-files.js";
import type { EvolveResult, StopReason } from "./result-schema.js";
import type { RunContext } from "./run-context.js";
import { openStrategy, type StrategyScope } from "./run-scope.js";
import type { LoopState, Strategy, StrategyRun } from "./strategy.js";
import { withStrategyHooks } from "./strategy-hooks.js";

/** Stops that mean the run could not do its job: the agent or the refiner never answered. */
export const silentStops: readonly StopReason[] = ["agent-unusable", "refiner-unusable"];

/**
 * A strategy run that stops, naming the cause, when an iteration heard nothing usable from the
 * agent or the refiner (src/refine `silentEnd`: the counts per role and kind, and the fix), instead
 * of paying for the same again and ending as if the search had run its course.
 */
export function stopWhenSilent<S extends LoopState>(run: StrategyRun<S>): StrategyRun<S> {
  return withStrategyHooks(run, {
    proposed(proposal) {
      if (proposal.kind === "stop" && proposal.stoppedBy === "no-failures") return proposal;
      const silent = silentEnd({
        records: proposal.seen.batch.run.records,
        diagnosis: proposal.seen.diagnosis,
        refinement: proposal.kind === "stop" ? undefined : proposal.refinement,
      });
      return silent ? { kind: "stop", seen: proposal.seen, ...silent } : proposal;
    },
  });
}

/** True when a run ended because the agent or the refiner never answered, and learned nothing. */
export function learnedNothing(result: Pick<EvolveResult, "stoppedBy" | "acceptedEdits">): boolean {
  return silentStops.includes(result.stoppedBy) && result.acceptedEdits.length === 0;
}

/**
 * Why a search phase (`--phase search`, the Action's `phase: search`) did not do its job — it
 * stopped because the agent or the refiner never answered and accepted nothing — or undefined.
 */
export function silentSearch(handoff: SearchHandoff): string | undefined {
  const { stoppedBy } = handoff;
  if (!stoppedBy || !silentStops.includes(stoppedBy)) return undefined;
  if (handoff.finalHash !== handoff.seedHash) return undefined;
  return `ecdysis evolve --phase search stopped (${stoppedBy}): ${handoff.stopDetail ?? "no detail"}`;
}

/**
 * The strategy opened for the loop (run-scope.ts `openStrategy`), stopping when an iteration heard
 * nothing usable and saying each iteration's verdict to `onIteration`.
 */
export function openWatchedStrategy(
  strategy: Strategy,
  context: RunContext,
  onIteration: ((line: string) => void) | undefined,
): { strategyRun: StrategyRun; scope: StrategyScope } {
  const { strategyRun, scope } = openStrategy(strategy, context);
  return { strategyRun: announceIterations(stopWhenSilent(strategyRun), onIteration), scope };
}
