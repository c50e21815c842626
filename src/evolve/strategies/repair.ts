import type { DiagnosisReport } from "../../diagnose/diagnose-batch.js";
import type { RolloutRecord } from "../../eval/types.js";
import { guardRefinement } from "../guard.js";
import { type RememberedProposal, shownToRoles } from "../memory.js";
import { passMapOf } from "../records.js";
import type { RunContext } from "../run-context.js";
import { stageSchemas } from "../stage-schemas.js";
import type { CandidateProposal, Observation, Proposal } from "../strategy.js";
import type { Candidate, ValidationStage } from "../validation.js";
import type { EcdysisData, EcdysisScope } from "./ecdysis-validate.js";
import { exposed } from "./rejection-evidence.js";
import type { IterationSteps } from "./steps.js";

/** What a repair round is for, as its iteration record says. */
export const repairPurpose = "repair what the rejected candidate broke or exposed";

/**
 * A rejected candidate whose repair is the next proposal, with what its rejection adds to the
 * memory once the repair is decided: the changes its validation dropped, and — unless the
 * repair is accepted — the proposal itself.
 */
export interface PendingRepair {
  proposal: CandidateProposal<EcdysisData>;
  stages: ValidationStage[];
  dropped: RememberedProposal[];
  rejection: RememberedProposal[];
  /** Which repair round of this candidate is next (1, 2, … up to `evolve.ecdysis.repairRounds`). */
  round?: number;
  /** The follow-ups earlier rounds tried and had rejected, shown to the roles. */
  tried?: RememberedProposal[];
  /**
   * The candidate the rejection judged and its edits (`judgedCandidate`): after pruning, the
   * proposal without the changes that fixed nothing. The repair builds on it, and what it broke
   * is read from its batch run (already made); absent, the proposal's own candidate.
   */
  judged?: Candidate;
}

/** The candidate a repair builds on, and the edits in force in it. */
function repairBase(repair: PendingRepair): Candidate {
  return (
    repair.judged ?? { harness: repair.proposal.candidate, kept: repair.proposal.guarded.applied }
  );
}

/** The journal scope of a repair round: `repair`, then `repair-2`. */
export function repairScope(round = 1): string {
  return round > 1 ? `repair-${round}` : "repair";
}

/**
 * One repair round for a rejected candidate that broke tasks which passed before, or whose
 * targets now fail differently (masked by another failure), proposed as the iteration's follow-up:
 * those failures are diagnosed across instances with the candidate's others on the whole batch
 * (they are systematic by construction — our change caused or exposed them), the roles refine a
 * follow-up change on top of the candidate, and the combination (original + repair edits) is a
 * proposal against the parent, validated like any. A change that exposes a latent deficiency (a
 * tool whose malformed calls now fail, a retry hint that now runs out of steps) then travels
 * with the fix for what it exposed, instead of being thrown away. Its stages are
 * `iteration-N/repair/…`; it draws from the iteration's streams.
 */
export async function proposeRepair(options: {
  context: RunContext;
  steps: IterationSteps;
  repair: PendingRepair;
  scope: EcdysisScope;
}): Promise<Proposal<EcdysisData>> {
  const { context, steps, repair } = options;
  const { proposal } = repair;
  const { harness: candidate, kept } = repairBase(repair);
  const round = repair.round ?? 1;
  const scope = options.scope.within(repairScope(round));
  const report = await diagnoseRegressions({ context, steps, repair, scope });
  const seen: Observation = { ...proposal.seen, diagnosis: report, traces: [] };
  const data: EcdysisData = {
    addressed: proposal.data.addressed,
    repair: true,
    repairRound: round,
  };
  const refused = (reason: string) =>
    ({ kind: "refused", seen, targets: proposal.targets, data, reason }) as const;
  if (!report) return refused("nothing broken or exposed on the whole batch");
  const patterns = report.patterns.filter((pattern) => pattern.kind === "systematic");
  if (patterns.length === 0) return refused("no systematic pattern among what it broke or exposed");
  const refinement = await steps.refine({
    stage: scope.key("refine"),
    request: {
      patterns,
      harness: candidate,
      refiner: context.models.refiner,
      rejected: shownToRoles(repair.tried ?? []),
      skepticRounds: context.config.evolve.ecdysis.skepticRounds,
      editable: context.guard.editable,
    },
  });
  const guarded = guardRefinement({ harness: candidate, refinement, guard: context.guard });
  const applied = [...kept, ...guarded.applied];
  const base = {
    ...refused(guarded.reason ?? "no repair candidate"),
    refinement,
    guarded: { ...guarded, applied },
    data: { ...data, addressed: [...proposal.data.addressed, ...patterns] },
  };
  return guarded.candidate ? { ...base, kind: "candidate", candidate: guarded.candidate } : base;
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
  context: RunContext;
  steps: IterationSteps;
  repair: PendingRepair;
  scope: EcdysisScope;
}): Promise<DiagnosisReport | undefined> {
  const { context, steps, repair, scope } = options;
  const { seen } = repair.proposal;
  const candidate = repairBase(repair).harness;
  const batch = seen.batch.tasks;
  const before = passMapOf(seen.batch.run.result);
  const run = await scope.stage(
    "batch",
    () =>
      context.evaluate({
        tasks: batch,
        harness: candidate,
        label: `iteration ${scope.index}: what it broke or exposed`,
      }),
    stageSchemas.evaluation,
  );
  const failing = run.records.filter((rollout) => !rollout.verdict.pass);
  const wanted = new Set([
    ...failing.filter((rollout) => before.get(rollout.taskId) === true).map(taskIdOf),
    ...exposed(repair.stages),
  ]);
  if (wanted.size === 0) return undefined;
  const report = await steps.diagnose({
    stage: scope.key("diagnose"),
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

function taskIdOf(record: RolloutRecord): string {
  return record.taskId;
}
