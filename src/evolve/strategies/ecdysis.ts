import type { PlannedEdit } from "../../harness/types.js";
import {
  failingRecords,
  iterationCloser,
  openIterationRecord,
  passMapOf,
  scoreOf,
  traceExcerpt,
} from "../records.js";
import type { PatternView, RefinementView, RejectedProposalView } from "../stage-views.js";
import { stratifiedSample } from "../stratified-sample.js";
import type { IterationRecord, PrunedChange, Strategy, StrategyOutcome } from "../types.js";
import type { AblatedChange } from "./ablate-changes.js";
import { diagnoseStep } from "./diagnose-step.js";
import { guardProposal } from "./guard-proposal.js";
import { exhaustedReason, identicalRejected, mayAttempt } from "./pattern-memory.js";
import { repairRegressions } from "./repair-regressions.js";
import { evaluateNotingFailures } from "./stream-notes.js";
import { type ProposalUnderTest, validateProposal } from "./validate-proposal.js";

/** The systematic patterns the applied edits name (all systematic ones when the edits name none of them). */
function addressedPatterns(systematic: PatternView[], refinement: RefinementView): PatternView[] {
  const named = new Set(refinement.edits.flatMap((edit) => edit.patterns));
  const addressed = systematic.filter(
    (pattern) => named.has(pattern.id) || named.has(pattern.name),
  );
  return addressed.length > 0 ? addressed : systematic;
}

function idsOf(patterns: PatternView[]): string {
  return patterns.map((pattern) => pattern.id).join(",");
}

function namesOf(patterns: { id: string; name: string }[]): string[] {
  return [...new Set(patterns.flatMap((pattern) => [pattern.id, pattern.name]))];
}

/** The HMS changes of a refinement that aim at one of these pattern ids. */
function hmsFor(refinement: RefinementView, patternIds: string[]): unknown {
  const hms = refinement.hms as { changes?: { patterns?: string[] }[] } | undefined;
  const changes = (hms?.changes ?? []).filter((change) =>
    (change.patterns ?? []).some((id) => patternIds.includes(id)),
  );
  return changes.length > 0 ? { changes } : undefined;
}

function prunedProposal(
  refinement: RefinementView,
  change: PrunedChange,
  patterns: PatternView[],
  parentHash: string,
): RejectedProposalView {
  return {
    pruned: true,
    parentHash,
    hmsSummary: change.edits.map((edit) => `${edit.module}: ${edit.rationale}`).join("; "),
    reason: `pruned: ${change.reason}`,
    patterns: namesOf(patterns.filter((pattern) => change.patterns.includes(pattern.id))),
    hms: hmsFor(refinement, change.patterns),
    edits: change.edits,
  };
}

/**
 * Ecdysis: per iteration, a stratified train batch under the current harness → cross-instance
 * diagnosis → collaborative refinement on the systematic patterns that still have attempts left
 * (`maxAttemptsPerPattern`; rejected proposals are shown to later attempts) → guards → a
 * proposal identical to a rejected one is dropped unvalidated → cheap validation with per-change
 * attribution (changes that fixed none of their targets are pruned) → full batch → accepted only
 * on a one-sided exact McNemar test (p < alpha, fixed > broken). Stops when no systematic
 * pattern with attempts left remains.
 */
export function ecdysisStrategy(): Strategy {
  return {
    name: "ecdysis",
    async run(context, progress): Promise<StrategyOutcome> {
      const { config, deps, models } = context;
      const evolve = config.evolve;
      let stoppedBy: StrategyOutcome["stoppedBy"] = "max-iterations";
      for (let index = 1; index <= evolve.maxIterations; index++) {
        context.checkBudget();
        const harness = progress.harness;
        const batch = stratifiedSample({
          items: context.train,
          size: evolve.batchSize,
          category: (task) => task.category,
          rng: context.rng(index, 1),
        });
        const batchEval = await evaluateNotingFailures(context, {
          stage: `iteration-${index}/batch`,
          tasks: batch,
          harness,
          label: `iteration ${index}: batch`,
        });
        const before = passMapOf(batchEval.result);
        const record = openIterationRecord({
          index,
          parentHash: harness.hash,
          taskIds: batch.map((task) => task.id),
          score: scoreOf(batchEval.result),
        });
        const finish = iterationCloser({ record, progress, context });
        if (failingRecords(batchEval.result, batchEval.records).length === 0) {
          finish("stopped", "every task of the batch passed");
          stoppedBy = "no-failures";
          break;
        }
        const attemptable = (pattern: PatternView) =>
          mayAttempt(pattern, progress.rejected, {
            maxAttempts: evolve.maxAttemptsPerPattern,
            harnessHash: harness.hash,
          });
        let ahead: { ids: string; view: Promise<RefinementView> } | undefined;
        const refineOptions = {
          harness,
          refiner: models.refiner,
          // A rejection on an earlier harness may no longer hold (the failure that sank it may
          // be fixed since): the roles see it marked as such.
          rejected: progress.rejected.map((proposal) =>
            proposal.parentHash === harness.hash ? proposal : { ...proposal, earlierHarness: true },
          ),
          skepticRounds: evolve.skepticRounds,
          editable: context.guard.editable,
        };
        const diagnosis = await diagnoseStep({
          context,
          index,
          batch,
          records: batchEval.records,
          harness,
          // While classification re-samples, the refinement of the patterns that passed the
          // support test starts; it is the refinement when classification keeps them all.
          onSupported: (patterns) => {
            const expected = patterns.filter(attemptable);
            if (expected.length === 0) return;
            ahead = {
              ids: idsOf(expected),
              view: context.background(() =>
                context.stage(`iteration-${index}/refine-ahead`, () =>
                  deps.refine({ ...refineOptions, patterns: expected }),
                ),
              ),
            };
          },
        });
        record.diagnosis = diagnosis;
        collectTraces(record, diagnosis.patterns, batchEval.records);
        // Model-specific patterns are reported, never repaired.
        const found = diagnosis.patterns.filter((pattern) => pattern.kind === "systematic");
        const systematic = found.filter(attemptable);
        if (systematic.length === 0) {
          const spent = exhaustedReason(found, progress.rejected, {
            maxAttempts: evolve.maxAttemptsPerPattern,
            harnessHash: harness.hash,
          });
          finish(
            "stopped",
            spent ??
              "no systematic pattern in this batch (the patterns found are reported, not repaired)",
          );
          stoppedBy = spent ? "attempts-exhausted" : "no-systematic-pattern";
          break;
        }
        const refine = () => deps.refine({ ...refineOptions, patterns: systematic });
        const early = ahead?.ids === idsOf(systematic) ? ahead.view : undefined;
        const refinement = await context.stage(`iteration-${index}/refine`, () =>
          early ? early.catch(refine) : refine(),
        );
        record.refinement = refinement;
        const addressed = addressedPatterns(systematic, refinement);
        const reject = (reason: string, edits?: PlannedEdit[]): void => {
          progress.rejected.push({
            hmsSummary: refinement.hmsSummary,
            reason,
            patterns: namesOf(addressed),
            hms: refinement.hms,
            parentHash: harness.hash,
            ...(edits && edits.length > 0 ? { edits } : {}),
            ...(refinement.verdict === "rejected" && refinement.reason === "no-changes"
              ? { nothingProposed: true }
              : {}),
          });
          finish("rejected", reason);
        };
        const guarded = guardProposal(context, harness, refinement);
        record.applied = guarded.applied;
        record.guardRejections = guarded.guardRejections;
        if (!guarded.candidate) {
          reject(guarded.reason ?? "no candidate");
          continue;
        }
        const same = identicalRejected(guarded.applied, progress.rejected, harness.hash);
        if (same) {
          reject(`identical to a rejected proposal (${same.reason}); not validated again`);
          continue;
        }
        record.candidateHash = guarded.candidate.hash;
        let prunedAll = false;
        const callbacks = {
          onPruned: (pruned: PrunedChange[]) => {
            for (const change of pruned)
              progress.rejected.push(prunedProposal(refinement, change, addressed, harness.hash));
            prunedAll = pruned.length > 0;
          },
          onDropped: (dropped: AblatedChange[]) => {
            for (const change of dropped)
              progress.rejected.push({
                hmsSummary: change.edits
                  .map((edit) => `${edit.module}: ${edit.rationale}`)
                  .join("; "),
                reason: `alone it fixed ${change.alone.fixed.length} and broke ${change.alone.broken.length} of the tasks its bundle flipped`,
                patterns: change.patternNames,
                edits: change.edits,
                parentHash: harness.hash,
              });
          },
        };
        const proposal: ProposalUnderTest = {
          context,
          index,
          batch,
          before,
          parent: harness,
          candidate: guarded.candidate,
          applied: guarded.applied,
          addressed,
        };
        let outcome = await validateProposal({ ...proposal, ...callbacks, record });
        if (outcome.verdict === "rejected" && outcome.broken?.length && evolve.repairRegressions) {
          const repair = await repairRegressions({ ...proposal, callbacks });
          record.repair = repair.record;
          if (repair.outcome?.verdict === "accepted")
            outcome = {
              ...repair.outcome,
              reason: `after repairing what it broke: ${repair.outcome.reason}`,
            };
        }
        if (outcome.verdict === "rejected") {
          // Pruned changes are already remembered one by one; the rest of the proposal as a whole.
          const rest = guarded.applied.filter(
            (edit) => !(record.pruned ?? []).some((change) => change.edits.includes(edit)),
          );
          if (rest.length > 0 || !prunedAll) reject(outcome.reason, rest);
          else finish("rejected", outcome.reason);
          continue;
        }
        record.applied = outcome.kept;
        progress.harness = outcome.candidate;
        record.accuracyAfter = outcome.accuracy;
        finish("accepted", outcome.reason);
      }
      return {
        finalHarness: progress.harness,
        iterations: progress.iterations,
        stoppedBy,
        rejected: progress.rejected,
      };
    },
  };
}

function collectTraces(
  record: IterationRecord,
  patterns: PatternView[],
  records: Parameters<typeof traceExcerpt>[0][],
): void {
  const byKey = new Map(records.map((rollout) => [rollout.key, rollout]));
  const byTask = new Map(records.map((rollout) => [rollout.taskId, rollout]));
  for (const pattern of patterns) {
    for (const example of pattern.examples) {
      const rollout =
        (example.rolloutKey && byKey.get(example.rolloutKey)) || byTask.get(example.taskId);
      if (rollout && !record.traces.some((trace) => trace.key === rollout.key))
        record.traces.push(traceExcerpt(rollout));
    }
  }
}
