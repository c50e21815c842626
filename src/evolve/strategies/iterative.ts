import type { EvalResult, RolloutRecord } from "../../eval/types.js";
import { comparePaired } from "../acceptance.js";
import {
  failingRecords,
  iterationCloser,
  openIterationRecord,
  passMapOf,
  scoreOf,
  traceExcerpt,
} from "../records.js";
import type { Strategy, StrategyOutcome } from "../types.js";
import { guardProposal } from "./guard-proposal.js";

/** Options of the iterative baseline. */
export interface IterativeOptions {
  /**
   * Proposals in a row without improvement before it stops. Defaults to `evolve.patience`;
   * unset there too, there is none: the search runs until its budget or maxIterations is spent.
   */
  patience?: number;
}

/** Seeded rotation over the failing tasks: proposal `index` takes the next `size` failures from a seeded start. */
function pickFailures(
  failures: RolloutRecord[],
  options: { index: number; size: number; start: number },
): RolloutRecord[] {
  const sorted = [...failures].sort((a, b) => a.taskId.localeCompare(b.taskId));
  const count = Math.min(options.size, sorted.length);
  const offset = options.start + (options.index - 1) * options.size;
  return Array.from(
    { length: count },
    (_, position) => sorted[(offset + position) % sorted.length],
  );
}

/**
 * The iterative baseline (per-instance search, as GEPA-style optimisers do): evaluate the full
 * train split; then, serially, show `iterativeMinibatch` failure(s) to one reflector, guard its
 * edits, re-evaluate the candidate on the FULL train split and keep it only when its accuracy is
 * strictly higher. Stops on budget or `maxIterations` proposals — like GEPA, which searches until
 * `max_metric_calls` is spent — or, only when a patience is set, after that many proposals
 * without improvement. Each evaluation uses the same rollout concurrency as ecdysis: what is serial is
 * proposal → full evaluation → next proposal, as in the method it stands for.
 */
export function iterativeStrategy(options: IterativeOptions = {}): Strategy {
  return {
    name: "iterative",
    async run(context, progress): Promise<StrategyOutcome> {
      const { config, deps, models } = context;
      const evolve = config.evolve;
      const patience = options.patience ?? evolve.patience ?? Number.POSITIVE_INFINITY;
      let current: { result: EvalResult; records: RolloutRecord[] } = await context.stage(
        "iterative/evaluate-seed",
        () =>
          context.evaluate({
            tasks: context.train,
            harness: progress.harness,
            label: "seed: train",
          }),
      );
      const start = Math.floor(context.rng(0, 3).next() * Math.max(1, context.train.length));
      let withoutImprovement = 0;
      let stoppedBy: StrategyOutcome["stoppedBy"] = "max-iterations";
      for (let index = 1; index <= evolve.maxIterations; index++) {
        context.checkBudget();
        const harness = progress.harness;
        const failing = failingRecords(current.result, current.records);
        const record = openIterationRecord({
          index,
          parentHash: harness.hash,
          taskIds: context.train.map((task) => task.id),
          score: scoreOf(current.result),
        });
        const finish = iterationCloser({ record, progress, context });
        if (failing.length === 0) {
          finish("stopped", "every train task passed");
          stoppedBy = "no-failures";
          break;
        }
        const failures = pickFailures(failing, { index, size: evolve.iterativeMinibatch, start });
        record.traces = failures.map(traceExcerpt);
        const ids = new Set(failures.map((failure) => failure.taskId));
        const refinement = await context.stage(`iteration-${index}/reflect`, () =>
          deps.reflect({
            failures,
            tasks: context.train.filter((task) => ids.has(task.id)),
            harness,
            refiner: models.refiner,
            rejected: progress.rejected,
            editable: context.guard.editable,
          }),
        );
        record.refinement = refinement;
        const reject = (reason: string): void => {
          progress.rejected.push({
            hmsSummary: refinement.hmsSummary,
            reason,
            patterns: [...ids],
            hms: refinement.hms,
          });
          finish("rejected", reason);
          withoutImprovement += 1;
        };
        const guarded = guardProposal(context, harness, refinement);
        record.applied = guarded.applied;
        record.guardRejections = guarded.guardRejections;
        if (!guarded.candidate) {
          reject(guarded.reason ?? "no candidate");
        } else {
          const candidate = guarded.candidate;
          record.candidateHash = candidate.hash;
          const evaluated = await context.stage(`iteration-${index}/evaluate`, () =>
            context.evaluate({
              tasks: context.train,
              harness: candidate,
              label: `iteration ${index}: train`,
            }),
          );
          record.validation.full = comparePaired(
            passMapOf(current.result),
            passMapOf(evaluated.result),
          );
          record.validation.candidate = scoreOf(evaluated.result);
          if (evaluated.result.accuracy > current.result.accuracy) {
            progress.harness = candidate;
            current = evaluated;
            withoutImprovement = 0;
            record.accuracyAfter = evaluated.result.accuracy;
            finish(
              "accepted",
              `train accuracy ${current.result.accuracy.toFixed(3)} > ${record.batch.score.accuracy.toFixed(3)}`,
            );
          } else {
            reject(
              `train accuracy ${evaluated.result.accuracy.toFixed(3)} is not above ${current.result.accuracy.toFixed(3)}`,
            );
          }
        }
        if (withoutImprovement >= patience) {
          stoppedBy = "patience";
          break;
        }
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
