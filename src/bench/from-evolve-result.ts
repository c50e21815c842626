import { decide } from "../evolve/acceptance.js";
import { refinementShare, type Spend } from "../evolve/budget.js";
import type { EvolveResult, IterationRecord } from "../evolve/result-schema.js";
import type {
  AcceptedEditView,
  EvolveOutcome,
  FoundPattern,
  InForcePoint,
  SpendView,
  TrajectoryPoint,
} from "./evolve-outcome.js";

/**
 * Reads what the bench scores out of `runEvolve`'s result: costs, accuracies, every pattern
 * found (per iteration, ids prefixed with the iteration), every accepted edit with the tasks
 * it addressed — the member tasks of the patterns it names or, when it names none that were
 * found (the iterative reflector's minibatch), the failing tasks shown in that iteration — and
 * the tasks its validation saw fixed, and the accuracy trajectory (one point per accepted step,
 * at the iteration's `elapsedMs`; the seed point is the first iteration's batch score), why it
 * stopped, and the harness in force over training time (for the bench's held-out probe).
 */
export function toEvolveOutcome(result: EvolveResult): EvolveOutcome {
  const { patterns, acceptedEdits, trajectory, inForce } = readIterations(result);
  return {
    baseline: {
      train: { accuracy: result.baseline.train.accuracy, n: result.baseline.train.n },
      heldout: { accuracy: result.baseline.heldout.accuracy, n: result.baseline.heldout.n },
    },
    final: {
      train: { accuracy: result.final.train.accuracy, n: result.final.train.n },
      heldout: { accuracy: result.final.heldout.accuracy, n: result.final.heldout.n },
    },
    training: spendView(result.cost.training),
    total: {
      rollouts: result.cost.rollouts,
      llmCalls: result.cost.llmCalls,
      promptTokens: result.cost.promptTokens,
      completionTokens: result.cost.completionTokens,
      wallMs: result.cost.wallMs,
      refinementShare: result.cost.refinementShare,
    },
    patterns,
    acceptedEdits,
    trajectory,
    trajectorySeedAccuracy: result.iterations[0]?.batch.score.accuracy ?? null,
    stoppedBy: result.stoppedBy,
    inForce: checkedInForce(inForce, result.harness.finalHash),
    // The result keeps no per-iteration spend; the engine adds it from the run's journal.
    spentThrough: [],
  };
}

/** One pass over the iterations: the patterns found, the accepted edits, the trajectory, the harness in force. */
function readIterations(result: EvolveResult): {
  patterns: FoundPattern[];
  acceptedEdits: AcceptedEditView[];
  trajectory: TrajectoryPoint[];
  inForce: InForcePoint[];
} {
  const patterns: FoundPattern[] = [];
  const acceptedEdits: AcceptedEditView[] = [];
  const trajectory: TrajectoryPoint[] = [];
  const inForce: InForcePoint[] = [
    { iteration: 0, elapsedMs: 0, harnessHash: result.harness.seedHash },
  ];
  // A follow-up (a repair round) is judged against its iteration's batch diagnosis: its own
  // diagnosis looks at what a candidate broke, not at the harness in force.
  const firstOf = new Map<number, { iteration: IterationRecord; found: FoundPattern[] }>();
  for (const iteration of result.iterations) {
    if (!firstOf.has(iteration.index)) {
      const found = iterationPatterns(iteration);
      firstOf.set(iteration.index, { iteration, found });
      patterns.push(...found);
    }
    if (iteration.verdict !== "accepted") continue;
    const batch = firstOf.get(iteration.index) ?? { iteration, found: [] };
    const fixed = fixedTasks(iteration);
    for (const edit of iteration.applied) {
      acceptedEdits.push({
        edit,
        addressedTaskIds: addressedTasks(batch.iteration, batch.found, edit.patterns),
        fixedTaskIds: [...new Set(fixed)],
      });
    }
    const harnessHash = acceptedHarnessHash(iteration);
    if (harnessHash && harnessHash !== inForce.at(-1)?.harnessHash)
      inForce.push({ iteration: iteration.index, elapsedMs: iteration.elapsedMs, harnessHash });
    trajectory.push({
      iteration: iteration.index,
      elapsedMs: iteration.elapsedMs,
      accuracy: iteration.accuracyAfter,
      tasks: iteration.batch.taskIds.length,
    });
  }
  return { patterns, acceptedEdits, trajectory, inForce };
}

/** The harness in force at the end must be the one the run returned; anything else is a misread. */
function checkedInForce(inForce: InForcePoint[], finalHash: string): InForcePoint[] {
  const last = inForce.at(-1)?.harnessHash;
  if (last !== finalHash) {
    throw new Error(
      `bench: the accepted steps end at harness ${last?.slice(0, 12)}, but the run returned ${finalHash.slice(0, 12)}`,
    );
  }
  return inForce;
}

function spendView(spend: Spend): SpendView {
  return {
    rollouts: spend.rollouts,
    llmCalls: spend.llmCalls,
    promptTokens: spend.promptTokens,
    completionTokens: spend.completionTokens,
    wallMs: spend.wallMs,
    refinementShare: refinementShare(spend),
  };
}

/** The tasks an accepted proposal's validation saw fixed: its first deciding test's, else its first screen's. */
function fixedTasks(iteration: IterationRecord): string[] {
  const tested = (role: string) =>
    iteration.validation.find((stage) => stage.role === role && stage.comparison);
  return (tested("verdict") ?? tested("screen"))?.comparison?.fixed ?? [];
}

function iterationPatterns(iteration: IterationRecord): FoundPattern[] {
  return (iteration.diagnosis?.patterns ?? []).map((pattern) => ({
    id: `${iteration.index}:${pattern.id}`,
    name: pattern.name,
    kind: pattern.kind,
    memberTaskIds: [...new Set(pattern.taskIds)],
  }));
}

function addressedTasks(
  iteration: IterationRecord,
  found: FoundPattern[],
  names: string[],
): string[] {
  const wanted = new Set(names);
  const matched = found.filter(
    (pattern) =>
      wanted.has(pattern.name) ||
      wanted.has(pattern.id) ||
      wanted.has(pattern.id.split(":").slice(1).join(":")),
  );
  if (matched.length > 0) return [...new Set(matched.flatMap((pattern) => pattern.memberTaskIds))];
  const failing = iteration.traces
    .filter((trace) => !trace.verdict.pass)
    .map((trace) => trace.taskId);
  return [...new Set(failing)];
}

/**
 * The harness an accepted iteration put in force: the verdict's candidate, read from the
 * validation as the loop decided it.
 */
export function acceptedHarnessHash(iteration: IterationRecord): string | undefined {
  if (iteration.verdict !== "accepted") return undefined;
  const verdict = decide(iteration.validation);
  return verdict.accepted ? verdict.candidateHash : iteration.candidateHash;
}
