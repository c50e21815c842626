import { openIterationRecord } from "../records.js";
import type { IterationRecord } from "../types.js";
import { guardProposal } from "./guard-proposal.js";
import {
  type ProposalUnderTest,
  type ValidationCallbacks,
  type ValidationOutcome,
  validateProposal,
} from "./validate-proposal.js";

/**
 * One repair round for a rejected candidate that broke tasks which passed before: its new
 * failures are diagnosed across instances (they are systematic by construction — our change
 * caused them), the roles refine a follow-up change on top of the candidate, and the combined
 * proposal (original + repair edits) is validated against the parent like any other. A change
 * that exposes a latent deficiency (a tool whose malformed calls now fail) then travels with the
 * fix for what it exposed, instead of being thrown away.
 */
export async function repairRegressions(
  options: ProposalUnderTest & { callbacks: ValidationCallbacks },
): Promise<{ record: IterationRecord; outcome?: ValidationOutcome }> {
  const { context, index, batch, candidate } = options;
  const { deps, models, config } = context;
  const scope = `iteration-${index}/repair`;
  const record = openIterationRecord({
    index,
    parentHash: options.parent.hash,
    taskIds: [],
    score: { accuracy: 0, n: 0, interval: [0, 0] },
  });
  // Every regression of the batch, not only those the cheap subset saw: more instances of
  // what the change broke make a better diagnosis (cached rollouts cost nothing).
  const batchRun = await context.stage(`${scope}/batch`, () =>
    context.evaluate({
      tasks: batch,
      harness: candidate,
      label: `iteration ${index}: what it broke`,
    }),
  );
  const regressions = batchRun.records.filter(
    (rollout) => !rollout.verdict.pass && options.before.get(rollout.taskId) === true,
  );
  if (regressions.length === 0) {
    record.reason = "no regression on the whole batch";
    return { record };
  }
  const diagnosis = await context.stage(`${scope}/diagnose`, () =>
    deps.diagnose({
      records: regressions,
      tasks: batch,
      refiner: models.refiner,
      minSupport: { tasks: 1, categories: 1 },
      resamples: 0,
      stepLimit: candidate.config?.agent_loop.max_steps,
    }),
  );
  record.diagnosis = diagnosis;
  const patterns = diagnosis.patterns.filter((pattern) => pattern.kind === "systematic");
  if (patterns.length === 0) {
    record.reason = "no systematic pattern among the regressions";
    return { record };
  }
  const refinement = await context.stage(`${scope}/refine`, () =>
    deps.refine({
      patterns,
      harness: candidate,
      refiner: models.refiner,
      rejected: [],
      skepticRounds: config.evolve.skepticRounds,
      editable: context.guard.editable,
    }),
  );
  record.refinement = refinement;
  const guarded = guardProposal(context, candidate, refinement);
  record.guardRejections = guarded.guardRejections;
  if (!guarded.candidate) {
    record.verdict = "rejected";
    record.reason = guarded.reason ?? "no repair candidate";
    return { record };
  }
  const applied = [...options.applied, ...guarded.applied];
  record.applied = applied;
  record.candidateHash = guarded.candidate.hash;
  const outcome = await validateProposal({
    context,
    index,
    batch,
    before: options.before,
    parent: options.parent,
    candidate: guarded.candidate,
    applied,
    addressed: [...options.addressed, ...patterns],
    record,
    scope,
    ...options.callbacks,
  });
  record.verdict = outcome.verdict;
  record.reason = outcome.reason;
  return { record, outcome };
}
