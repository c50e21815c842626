import { refinementSummary } from "../../refine/refinement-record.js";
import { editsSummary, type RememberedProposal, rememberedHms } from "../memory.js";
import type { RunContext } from "../run-context.js";
import { withSpeedups } from "../speed/index.js";
import type { CandidateProposal, LoopStep, Strategy, StrategyRun } from "../strategy.js";
import { type ChangeOutcome, prunedChanges, type ValidationStage } from "../validation.js";
import { affordable } from "./ecdysis-budget.js";
import { type ObservingState, proposeEcdysis } from "./ecdysis-propose.js";
import { observeMoreReason } from "./ecdysis-stop.js";
import { type EcdysisData, ecdysisStreams, validateEcdysis } from "./ecdysis-validate.js";
import { exposed, judgedCandidate, regressions } from "./rejection-evidence.js";
import { type PendingRepair, proposeRepair, repairPurpose, repairScope } from "./repair.js";
import { type IterationSteps, plainSteps } from "./steps.js";

/**
 * Ecdysis's state: the loop's, what it observed on the harness in force, and the rejected
 * candidate its next proposal repairs.
 */
interface EcdysisState extends ObservingState {
  repair?: PendingRepair;
}

/**
 * Ecdysis: per iteration, a stratified train batch under the current harness → cross-instance
 * diagnosis → collaborative refinement on the systematic patterns that still have attempts left
 * (`maxAttemptsPerPattern`; rejected proposals are shown to later attempts) → guards → cheap
 * validation with per-change attribution → full batch → accepted only on a one-sided exact
 * McNemar test (p < alpha, fixed > broken); a rejected candidate that broke or exposed something
 * is followed up by a repair round (`repairRegressions`). Stops when no systematic pattern with
 * attempts left remains. With `context.speedups`, the speed tricks wrap its steps
 * (src/evolve/speed). Its options: `evolve.ecdysis`.
 */
export function ecdysisStrategy(): Strategy {
  return {
    name: "ecdysis",
    streams: ecdysisStreams,
    open: (context) => ecdysisRun(context),
  };
}

/** Ecdysis on one run; its scopes come per iteration, from the loop. */
function ecdysisRun(base: RunContext): StrategyRun<EcdysisState, EcdysisData> {
  const atRound = sampleRounds(base);
  return {
    start: async (seed) => ({ harness: seed, memory: [] }),
    followUp: (state) => (state.repair ? repairPurpose : undefined),
    propose: (state, scope) => {
      const { context, steps } = atRound(state.sampleRound ?? 0);
      return state.repair
        ? proposeRepair({ context, steps, repair: state.repair, scope })
        : proposeEcdysis({ context, steps, state, scope });
    },
    validate: (proposal, state, scope) =>
      validateEcdysis({
        ...atRound(state.sampleRound ?? 0),
        proposal,
        scope: proposal.data.repair ? scope.within(repairScope(proposal.data.repairRound)) : scope,
      }),
    next: (state, step) => ({ ...next(base, state, step), ...observation(state, step) }),
  };
}

/** Sample indices of one round of fresh samples apart from the next (above any re-draw's). */
export const sampleRoundStride = 1000;

/**
 * The run's context and steps for a round of fresh samples: round 0 is the run's own; round r
 * evaluates every rollout at sample indices r × `sampleRoundStride` on — the batch, its
 * validation and re-draws alike, so parent and candidate stay paired on the same draws.
 */
function sampleRounds(base: RunContext) {
  const rounds = new Map<number, { context: RunContext; steps: IterationSteps }>();
  return (round: number) => {
    const known = rounds.get(round);
    if (known) return known;
    const offset = round * sampleRoundStride;
    const context: RunContext =
      round === 0
        ? base
        : {
            ...base,
            evaluate: (request) =>
              base.evaluate({ ...request, firstSample: (request.firstSample ?? 0) + offset }),
          };
    const plain = plainSteps(context);
    const made = { context, steps: context.speedups ? withSpeedups(plain, context) : plain };
    rounds.set(round, made);
    return made;
  };
}

/**
 * What the state remembers of observation: the train tasks seen since the harness in force was
 * accepted, and whether the next batch should prefer unseen ones (an observe-more proposal).
 */
function observation(
  state: EcdysisState,
  step: LoopStep<EcdysisData>,
): Pick<ObservingState, "observed" | "observeFresh" | "sampleRound" | "freshRoundDone"> {
  const { proposal, verdict } = step;
  const round = state.sampleRound ?? 0;
  // A round of fresh samples starts the observation of this harness over, at new sample indices.
  if (proposal.kind === "refused" && proposal.data?.freshSamples)
    return { observed: [], observeFresh: false, sampleRound: round + 1, freshRoundDone: true };
  const ids = proposal.seen.batch.tasks.map((task) => task.id);
  const observed = verdict.accepted ? [] : [...new Set([...(state.observed ?? []), ...ids])];
  const observeFresh = proposal.kind === "refused" && proposal.reason.startsWith(observeMoreReason);
  const freshRoundDone = verdict.accepted ? false : state.freshRoundDone;
  return { observed, observeFresh, sampleRound: round, freshRoundDone };
}

/**
 * The state after a decided proposal: an accepted candidate in force; a rejected one that broke
 * or exposed something repaired next (what its rejection adds to the memory waits for the
 * repair's verdict: an accepted repair leaves the proposal unremembered); the rest remembered.
 */
function next(context: RunContext, state: EcdysisState, step: LoopStep<EcdysisData>): EcdysisState {
  const { proposal, validation, verdict } = step;
  const harness = verdict.accepted
    ? (validation.candidates.get(verdict.candidateHash)?.harness ?? state.harness)
    : state.harness;
  const parentHash = state.harness.hash;
  if (state.repair) return afterRepair(context, state.repair, step, { harness, state });
  const dropped = droppedChanges({ stages: validation.stages, proposal, parentHash });
  const rejection = verdict.accepted ? [] : rejected(step, parentHash, state.sampleRound);
  const stages = validation.stages;
  const repairable =
    context.config.evolve.ecdysis.repairRegressions &&
    regressions(stages).length + exposed(stages).length > 0 &&
    repairFits(context, proposal, verdict);
  if (repairable) {
    const judged = validation.candidates.get(
      judgedCandidate(stages) ?? proposal.candidate?.hash ?? "",
    );
    const repair = { proposal, stages, dropped, rejection, ...(judged ? { judged } : {}) };
    return { harness, memory: state.memory, repair };
  }
  return { harness, memory: [...state.memory, ...dropped, ...rejection] };
}

/**
 * Whether a decided proposal may get a repair round: a rejected candidate, with a batch of budget
 * left (a repair that cannot finish within the budget would be cut short and dropped).
 */
function repairFits(
  context: RunContext,
  proposal: LoopStep<EcdysisData>["proposal"],
  verdict: LoopStep<EcdysisData>["verdict"],
): proposal is CandidateProposal<EcdysisData> {
  return (
    proposal.kind === "candidate" &&
    !verdict.accepted &&
    affordable(context, proposal.seen.batch.tasks.length)
  );
}

/**
 * The state after a repair round. Its dropped changes are remembered with the proposal it
 * repairs; a rejected follow-up gets another round while `evolve.ecdysis.repairRounds` and the
 * budget allow (shown what was tried: a wrong diagnosis of what the candidate exposed — a generic
 * rule for a tool's malformed calls — otherwise throws away a right fix that only needed the
 * right companion), else the repaired proposal is remembered as rejected.
 */
function afterRepair(
  context: RunContext,
  repair: PendingRepair,
  step: LoopStep<EcdysisData>,
  after: { harness: EcdysisState["harness"]; state: EcdysisState },
): EcdysisState {
  const { validation, verdict } = step;
  const { harness, state } = after;
  const parentHash = state.harness.hash;
  const stages = validation.stages;
  const dropped = [
    ...repair.dropped,
    ...droppedChanges({ stages, proposal: repair.proposal, parentHash }),
  ];
  const round = repair.round ?? 1;
  const again =
    round < context.config.evolve.ecdysis.repairRounds &&
    repairFits(context, step.proposal, verdict);
  if (again) {
    const tried = [...(repair.tried ?? []), ...rejected(step, parentHash)];
    return {
      harness,
      memory: state.memory,
      repair: { ...repair, dropped, round: round + 1, tried },
    };
  }
  const original = verdict.accepted ? [] : repair.rejection;
  return { harness, memory: [...state.memory, ...dropped, ...original] };
}

/**
 * A rejected proposal, remembered under its targets: the edits its validation tried, less those
 * pruning took out (remembered on their own). A proposal pruned to nothing is remembered through
 * its pruned changes alone.
 */
function rejected(
  step: LoopStep<EcdysisData>,
  parentHash: string,
  sampleRound = 0,
): RememberedProposal[] {
  const { proposal, validation, verdict } = step;
  const pruned = new Set(prunedChanges(validation.stages).flatMap((change) => change.edits));
  // A refused proposal was never tried: nothing of it is an edit set to drop unvalidated later.
  const rest =
    proposal.kind === "candidate"
      ? proposal.guarded.applied.filter((edit) => !pruned.has(edit))
      : [];
  if (proposal.kind === "candidate" && rest.length === 0) return [];
  if (!proposal.refinement) return [];
  const summary = refinementSummary(proposal.refinement);
  return [
    {
      summary,
      hms: rememberedHms(proposal.refinement.hms, summary, proposal.targets),
      reason: verdict.reason,
      patternIds: proposal.targets,
      parentHash,
      ...(rest.length > 0 ? { edits: rest } : {}),
      ...(proposal.refinement.outcome === "no-changes"
        ? { nothingProposed: true, ...(sampleRound > 0 ? { sampleRound } : {}) }
        : {}),
    },
  ];
}

/**
 * The changes a validation dropped, in the order it dropped them: each pruned change (an attempt
 * at its patterns), and each change a retry left out while keeping others (a rejection).
 */
function droppedChanges(options: {
  stages: readonly ValidationStage[];
  proposal: LoopStep<EcdysisData>["proposal"];
  parentHash: string;
}): RememberedProposal[] {
  const { proposal, parentHash } = options;
  return options.stages.flatMap((stage): RememberedProposal[] => {
    if (stage.role === "prune")
      return (stage.changes ?? []).map((change) => prunedChange(change, proposal, parentHash));
    if (stage.role === "retry" && stage.decision.accepted)
      return (stage.changes ?? [])
        .filter((change) => !change.kept)
        .map((change) => leftOut(change, parentHash));
    return [];
  });
}

/** A change a retry left out: remembered as rejected under its patterns. */
function leftOut(change: ChangeOutcome, parentHash: string): RememberedProposal {
  const summary = editsSummary(change.edits);
  return {
    summary,
    hms: rememberedHms(undefined, summary, change.patterns),
    reason: change.reason,
    patternIds: change.patterns,
    edits: change.edits,
    parentHash,
  };
}

/** A pruned change, remembered as an attempt at its own patterns (not as a rejection). */
function prunedChange(
  change: ChangeOutcome,
  proposal: LoopStep<EcdysisData>["proposal"],
  parentHash: string,
): RememberedProposal {
  const ids = change.patternIds ?? [];
  const summary = editsSummary(change.edits);
  const patterns = proposal.data.addressed.filter((pattern) => ids.includes(pattern.id));
  const patternIds = [...new Set(patterns.flatMap((pattern) => [pattern.id, pattern.name]))];
  return {
    summary,
    hms: rememberedHms(hmsFor(proposal.refinement?.hms ?? null, ids), summary, patternIds),
    reason: `pruned: ${change.reason}`,
    patternIds,
    pruned: true,
    edits: change.edits,
    parentHash,
  };
}

/** The HMS changes of a refinement that aim at one of these pattern ids. */
function hmsFor(hms: { changes: { patterns: string[] }[] } | null, patternIds: string[]): unknown {
  const changes = (hms?.changes ?? []).filter((change) =>
    change.patterns.some((id) => patternIds.includes(id)),
  );
  return changes.length > 0 ? { changes } : undefined;
}
