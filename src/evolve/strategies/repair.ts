import type { DiagnosisReport } from "../../diagnose/diagnose-batch.js";
import type { LoadedHarness } from "../../harness/types.js";
import type { RefinementRecord } from "../../refine/refinement-record.js";
import { decide } from "../acceptance.js";
import type { RepairedStage } from "../evidence.js";
import { type GuardedEdits, guardRefinement } from "../guard.js";
import { stageSchemas } from "../stage-schemas.js";
import type { CandidateProposal } from "../strategy.js";
import { exposed, type Validation, validateEcdysis } from "./ecdysis-validate.js";

/**
 * One repair round for a rejected candidate that broke tasks which passed before, or whose
 * targets now fail differently (masked by another failure): those failures are diagnosed across
 * instances with the candidate's others on the whole batch (they are systematic by construction
 * — our change caused or exposed them), the roles refine a follow-up change on top of the
 * candidate, and the combination (original + repair edits) is validated against the parent like
 * any proposal. A change that exposes a latent deficiency (a tool whose malformed calls now
 * fail, a retry hint that now runs out of steps) then travels with the fix for what it exposed,
 * instead of being thrown away. Records a `repaired` stage, with the round's own evidence and
 * candidates.
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
  if (!report) return refused("nothing broken or exposed on the whole batch");
  const { patterns: found, stats } = report;
  const diagnosis = { patterns: found, evidenceCount: report.evidence.length, stats };
  const patterns = found.filter((pattern) => pattern.kind === "systematic");
  if (patterns.length === 0)
    return refused("no systematic pattern among what it broke or exposed", { diagnosis });
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
  const guarded = await runnableRepair({ validation, candidate, refinement });
  const { guardRejections, labelFlags } = guarded;
  const base = { diagnosis, refinement, guardRejections, labelFlags };
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

/** The repair's edits through the guards on top of the candidate; no candidate when its edited files no longer parse. */
async function runnableRepair(input: {
  validation: Validation;
  candidate: LoadedHarness;
  refinement: RefinementRecord;
}): Promise<GuardedEdits> {
  const { context } = input.validation;
  const { candidate, refinement } = input;
  const guarded = guardRefinement({ harness: candidate, refinement, guard: context.guard });
  if (!guarded.candidate) return guarded;
  const unparsable = await context.checkCandidate?.({
    candidate: guarded.candidate,
    parent: candidate,
  });
  return unparsable ? { ...guarded, candidate: undefined, reason: unparsable } : guarded;
}

/**
 * What the candidate broke on the whole batch — not only what the cheap subset saw — and the
 * targets it exposed (they fail differently now), diagnosed across instances: all of the
 * candidate's failures on the batch are diagnosed together, so a regression joins the other
 * failures that fail the same way (two malformed calls of a new tool beside four earlier tool
 * errors make a better diagnosis than the two alone; cached rollouts cost nothing), and the
 * patterns that hold a broken or exposed task are kept. Undefined when there is neither.
 */
async function diagnoseRegressions(options: {
  validation: Validation;
  candidate: LoadedHarness;
  scope: string;
}): Promise<DiagnosisReport | undefined> {
  const { validation, candidate, scope } = options;
  const { context, index, batch, before } = validation;
  const run = await context.stage(
    `${scope}/batch`,
    () =>
      context.evaluate({
        tasks: batch,
        harness: candidate,
        label: `iteration ${index}: what it broke or exposed`,
      }),
    stageSchemas.evaluation,
  );
  const failing = run.records.filter((rollout) => !rollout.verdict.pass);
  const wanted = new Set([
    ...failing.filter((rollout) => before.get(rollout.taskId) === true).map((r) => r.taskId),
    ...exposed(validation.stages),
  ]);
  if (wanted.size === 0) return undefined;
  const report = await validation.steps.diagnose({
    stage: `${scope}/diagnose`,
    request: {
      records: failing,
      tasks: batch,
      refiner: context.models.refiner,
      minSupport: { tasks: 1, categories: 1 },
      resamples: 0,
      stepLimit: candidate.config?.agent_loop.max_steps,
    },
  });
  const patterns = report.patterns.filter((pattern) =>
    pattern.taskIds.some((taskId) => wanted.has(taskId)),
  );
  return { ...report, patterns };
}
