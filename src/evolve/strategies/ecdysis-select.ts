import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { deterministicAgent } from "../acceptance.js";
import { mayAttempt } from "../memory.js";
import type { RunContext } from "../run-context.js";
import { unacceptableAtEvidence } from "./ecdysis-budget.js";
import { narrowPatterns } from "./ecdysis-narrow.js";
import type { ObservingState } from "./ecdysis-propose.js";

// Which diagnosed patterns a proposal refines: the attemptable systematic ones, and narrow riders.

/**
 * Whether a systematic pattern is attempted on this batch: it has attempts left on this harness
 * and evidence (memory.ts `mayAttempt`), and a fix of it could be accepted at this batch size.
 */
export function attemptableHere(options: {
  context: RunContext;
  state: ObservingState;
  maxAttempts: number;
  batchSize: number;
}): (pattern: FailurePattern) => boolean {
  const { context, state, maxAttempts, batchSize } = options;
  const evolve = context.config.evolve.ecdysis;
  return (pattern) =>
    mayAttempt(pattern, state.memory, {
      maxAttempts,
      harnessHash: state.harness.hash,
      sampleRound: state.sampleRound,
    }) &&
    !unacceptableAtEvidence({
      pattern,
      failingMembers: pattern.taskIds.length,
      batchSize,
      alpha: evolve.alpha,
      minFixed: evolve.minSupport.tasks,
      draws: deterministicAgent(context.config) ? 1 : 1 + evolve.confirmSamples,
    });
}

/**
 * The patterns a proposal refines, as a function of the diagnosed patterns (so the refinement
 * started ahead, on the patterns known before the re-samples, selects the same way): the
 * attemptable systematic ones and, when there is one, the narrow riders (ecdysis-narrow.ts).
 */
export function refinedPatterns(options: {
  context: RunContext;
  state: ObservingState;
  attemptable: (pattern: FailurePattern) => boolean;
  batchSize: number;
}) {
  const { attemptable, ...narrow } = options;
  return (patterns: readonly FailurePattern[]): FailurePattern[] => {
    const systematic = patterns.filter(
      (pattern) => pattern.kind === "systematic" && attemptable(pattern),
    );
    if (systematic.length === 0) return [];
    return [...systematic, ...narrowPatterns({ ...narrow, patterns, use: "rider" })];
  };
}
