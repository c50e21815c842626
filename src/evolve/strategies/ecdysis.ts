import type { Task } from "../../config/task-schema.js";
import type { RolloutRecord } from "../../eval/types.js";
import { comparePaired, isAccepted, isPromising } from "../acceptance.js";
import { failingRecords, passMapOf, restrictPassMap, scoreOf, traceExcerpt } from "../records.js";
import type { PatternView, RefinementView } from "../stage-views.js";
import { stratifiedSample } from "../stratified-sample.js";
import type { IterationRecord, Strategy, StrategyOutcome, StrategyProgress } from "../types.js";
import { guardProposal } from "./guard-proposal.js";

/** Whether a pattern's proposal was already rejected (matched by id or name). */
function alreadyRejected(pattern: PatternView, progress: StrategyProgress): boolean {
  return progress.rejected.some(
    (proposal) =>
      proposal.patterns.includes(pattern.id) || proposal.patterns.includes(pattern.name),
  );
}

/** The systematic patterns the applied edits name (all systematic ones when the edits name none of them). */
function addressedPatterns(systematic: PatternView[], refinement: RefinementView): PatternView[] {
  const named = new Set(refinement.edits.flatMap((edit) => edit.patterns));
  const addressed = systematic.filter(
    (pattern) => named.has(pattern.id) || named.has(pattern.name),
  );
  return addressed.length > 0 ? addressed : systematic;
}

function tasksOf(records: RolloutRecord[], tasks: Task[]): Task[] {
  const ids = new Set(records.map((record) => record.taskId));
  return tasks.filter((task) => ids.has(task.id));
}

/**
 * Ecdysis: per iteration, a stratified train batch under the current harness → cross-instance
 * diagnosis → collaborative refinement on the systematic patterns only → guards → cheap
 * validation (failing members of the addressed patterns + a stratified regression sample of
 * passing tasks; rejected unless fixed > broken) → full batch → accepted only on a one-sided
 * exact McNemar test (p < alpha, fixed > broken). Stops when no systematic pattern is left.
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
        const batchEval = await context.stage(`iteration-${index}/batch`, () =>
          context.evaluate({ tasks: batch, harness, label: `iteration ${index}: batch` }),
        );
        const before = passMapOf(batchEval.result);
        const record: IterationRecord = {
          index,
          parentHash: harness.hash,
          batch: { taskIds: batch.map((task) => task.id), score: scoreOf(batchEval.result) },
          applied: [],
          guardRejections: [],
          validation: {},
          verdict: "no-proposal",
          reason: "",
          accuracyAfter: batchEval.result.accuracy,
          traces: [],
        };
        const finish = (verdict: IterationRecord["verdict"], reason: string): void => {
          record.verdict = verdict;
          record.reason = reason;
          progress.iterations.push(record);
          context.onIteration?.(record);
        };
        if (failingRecords(batchEval.result, batchEval.records).length === 0) {
          finish("stopped", "every task of the batch passed");
          stoppedBy = "no-failures";
          break;
        }
        const samples = config.samples;
        const diagnosis = await context.stage(`iteration-${index}/diagnose`, () =>
          deps.diagnose({
            records: batchEval.records,
            tasks: batch,
            refiner: models.refiner,
            minSupport: evolve.minSupport,
            resamples: evolve.resamples,
            stepLimit: harness.config?.agent_loop.max_steps,
            resample:
              evolve.resamples > 0
                ? async (records, k) => {
                    const run = await context.evaluate({
                      tasks: tasksOf(records, batch),
                      harness,
                      samples: k,
                      firstSample: samples,
                      label: `iteration ${index}: resample`,
                    });
                    return run.records;
                  }
                : undefined,
            probe: models.probe
              ? async (records) =>
                  (
                    await context.evaluate({
                      tasks: tasksOf(records, batch),
                      harness,
                      provider: "probe",
                      label: `iteration ${index}: probe`,
                    })
                  ).records
              : undefined,
          }),
        );
        record.diagnosis = diagnosis;
        const byKey = new Map(batchEval.records.map((rollout) => [rollout.key, rollout]));
        const byTask = new Map(batchEval.records.map((rollout) => [rollout.taskId, rollout]));
        for (const pattern of diagnosis.patterns) {
          for (const example of pattern.examples) {
            const rollout =
              (example.rolloutKey && byKey.get(example.rolloutKey)) || byTask.get(example.taskId);
            if (rollout && !record.traces.some((trace) => trace.key === rollout.key))
              record.traces.push(traceExcerpt(rollout));
          }
        }
        // Model-specific patterns are reported, never repaired.
        const systematic = diagnosis.patterns.filter(
          (pattern) => pattern.kind === "systematic" && !alreadyRejected(pattern, progress),
        );
        if (systematic.length === 0) {
          finish("stopped", "no systematic pattern left (model-specific ones are not repaired)");
          stoppedBy = "no-systematic-pattern";
          break;
        }
        const refinement = await context.stage(`iteration-${index}/refine`, () =>
          deps.refine({
            patterns: systematic,
            harness,
            refiner: models.refiner,
            rejected: progress.rejected,
            skepticRounds: evolve.skepticRounds,
          }),
        );
        record.refinement = refinement;
        const addressed = addressedPatterns(systematic, refinement);
        const reject = (reason: string): void => {
          const names = addressed.flatMap((pattern) => [pattern.id, pattern.name]);
          progress.rejected.push({
            hmsSummary: refinement.hmsSummary,
            reason,
            patterns: [...new Set(names)],
            hms: refinement.hms,
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
        const candidate = guarded.candidate;
        record.candidateHash = candidate.hash;
        const failingMembers = new Set(
          addressed
            .flatMap((pattern) => pattern.taskIds)
            .filter((taskId) => before.get(taskId) === false),
        );
        const passing = batch.filter((task) => before.get(task.id) === true);
        const regression = new Set(
          stratifiedSample({
            items: passing,
            size: evolve.regressionSample,
            category: (task) => task.category,
            rng: context.rng(index, 2),
          }).map((task) => task.id),
        );
        const cheapTasks = batch.filter(
          (task) => failingMembers.has(task.id) || regression.has(task.id),
        );
        const cheapEval = await context.stage(`iteration-${index}/validate-cheap`, () =>
          context.evaluate({
            tasks: cheapTasks,
            harness: candidate,
            label: `iteration ${index}: cheap validation`,
          }),
        );
        const cheap = comparePaired(
          restrictPassMap(before, new Set(cheapTasks.map((task) => task.id))),
          passMapOf(cheapEval.result),
        );
        record.validation.cheap = cheap;
        if (!isPromising(cheap)) {
          reject(`cheap validation: fixed ${cheap.fixed.length} ≤ broken ${cheap.broken.length}`);
          continue;
        }
        const fullEval = await context.stage(`iteration-${index}/validate-full`, () =>
          context.evaluate({
            tasks: batch,
            harness: candidate,
            label: `iteration ${index}: full batch`,
          }),
        );
        const full = comparePaired(before, passMapOf(fullEval.result));
        record.validation.full = full;
        record.validation.candidate = scoreOf(fullEval.result);
        if (!isAccepted(full, evolve.alpha)) {
          reject(
            `full batch: fixed ${full.fixed.length}, broken ${full.broken.length}, one-sided McNemar p = ${full.pValue.toFixed(4)} (needs < ${evolve.alpha})`,
          );
          continue;
        }
        progress.harness = candidate;
        record.accuracyAfter = fullEval.result.accuracy;
        finish(
          "accepted",
          `fixed ${full.fixed.length}, broken ${full.broken.length}, p = ${full.pValue.toFixed(4)} < ${evolve.alpha}`,
        );
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
