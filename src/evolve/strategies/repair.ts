import type { DiagnosisReport } from "../../diagnose/diagnose-batch.js";
import type { LoadedHarness } from "../../harness/types.js";
import { decide } from "../acceptance.js";
import type { RepairedStage } from "../evidence.js";
import { guardRefinement } from "../guard.js";
import type { CandidateProposal } from "../strategy.js";
import { type Validation, validateEcdysis } from "./ecdysis-validate.js";

/**
 * One repair round for a rejected candidate that broke tasks which passed before: its new
 * failures on the whole batch are diagnosed across instances (they are systematic by
 * construction — our change caused them), the roles refine a follow-up change on top of the
 * candidate, and the combination (original + repair edits) is validated against the parent like
 * any proposal. A change that exposes a latent deficiency (a tool whose malformed calls now
 * fail) then travels with the fix for what it exposed, instead of being thrown away. Records a
 * `repaired` stage, with the round's own evidence and candidates.
 */
export async function repairRegressions(options: {
  validation: Validation;
  proposal: CandidateProposal;
}): Promise<void> {
  const { validation, proposal } = options;
  const { context, index } = validation;
  const { candidate } = proposal;
  const scope = `iteration-${index}/repair`;
  const refused = (reason: string, found: Partial<RepairedStage> = {}) =>
    void validation.stages.push({
      stage: "repaired",
      guardRejections: [],
      applied: [],
      evidence: [],
      ...found,
      decision: { accepted: false, reason },
    });
  const report = await diagnoseRegressions({ validation, candidate, scope });
  if (!report) return refused("no regression on the whole batch");
  const { patterns: found, stats } = report;
  const diagnosis = { patterns: found, evidenceCount: report.evidence.length, stats };
  const patterns = found.filter((pattern) => pattern.kind === "systematic");
  if (patterns.length === 0)
    return refused("no systematic pattern among the regressions", { diagnosis });
  const refinement = await validation.steps.refine({
    stage: `${scope}/refine`,
    request: {
      patterns,
      harness: candidate,
      refiner: context.models.refiner,
      rejected: [],
      skepticRounds: context.config.evolve.skepticRounds,
      editable: context.guard.editable,
    },
  });
  const guarded = guardRefinement({ harness: candidate, refinement, guard: context.guard });
  const base = { diagnosis, refinement, guardRejections: guarded.guardRejections };
  if (!guarded.candidate) return refused(guarded.reason ?? "no repair candidate", base);
  const applied = [...proposal.guarded.applied, ...guarded.applied];
  const repaired = await validateEcdysis({
    context,
    steps: validation.steps,
    scope,
    proposal: {
      ...proposal,
      addressed: [...proposal.addressed, ...patterns],
      guarded: { ...guarded, applied },
      candidate: guarded.candidate,
    },
  });
  for (const [hash, kept] of repaired.candidates) validation.candidates.set(hash, kept);
  const { accepted, reason } = decide(repaired.stages);
  const evidence = repaired.stages;
  const candidateHash = guarded.candidate.hash;
  const stage = { ...base, applied, candidateHash, evidence, decision: { accepted, reason } };
  validation.stages.push({ stage: "repaired", ...stage });
}

/**
 * What the candidate broke on the whole batch — not only what the cheap subset saw: more
 * instances of what the change broke make a better diagnosis (cached rollouts cost nothing) —
 * diagnosed across instances. Undefined when it broke nothing.
 */
async function diagnoseRegressions(options: {
  validation: Validation;
  candidate: LoadedHarness;
  scope: string;
}): Promise<DiagnosisReport | undefined> {
  const { validation, candidate, scope } = options;
  const { context, index, batch, before } = validation;
  const run = await context.stage(`${scope}/batch`, () =>
    context.evaluate({
      tasks: batch,
      harness: candidate,
      label: `iteration ${index}: what it broke`,
    }),
  );
  const broken = run.records.filter(
    (rollout) => !rollout.verdict.pass && before.get(rollout.taskId) === true,
  );
  if (broken.length === 0) return undefined;
  return validation.steps.diagnose({
    stage: `${scope}/diagnose`,
    request: {
      records: broken,
      tasks: batch,
      refiner: context.models.refiner,
      minSupport: { tasks: 1, categories: 1 },
      resamples: 0,
      stepLimit: candidate.config?.agent_loop.max_steps,
    },
  });
}
