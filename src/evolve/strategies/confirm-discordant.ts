import type { Task } from "../../config/task-schema.js";
import type { RolloutRecord } from "../../eval/types.js";
import type { LoadedHarness } from "../../harness/types.js";
import {
  compareSamples,
  type PairedComparison,
  type PassMap,
  type SampleComparison,
  type SampleOutcomes,
} from "../acceptance.js";
import type { StrategyContext } from "../types.js";

function outcomes(records: RolloutRecord[]): Map<string, Map<number, boolean>> {
  const byTask = new Map<string, Map<number, boolean>>();
  for (const record of records) {
    const draws = byTask.get(record.taskId) ?? new Map<number, boolean>();
    draws.set(record.sampleIndex, record.verdict.pass);
    byTask.set(record.taskId, draws);
  }
  return byTask;
}

/** Adds the first draw of each task (its pass in the batch comparison) as sample 0. */
function withFirstDraw(draws: Map<string, Map<number, boolean>>, first: PassMap): SampleOutcomes {
  for (const [taskId, passed] of first) {
    if (!draws.has(taskId)) continue;
    draws.get(taskId)?.set(0, passed);
  }
  return draws;
}

/**
 * Re-draws every discordant task of the full-batch comparison `samples` more times under the
 * parent and under the candidate (same sample indices, so the same request seeds), and pairs the
 * outcomes draw by draw. Both runs go through the rollout cache, so a resumed run pays nothing.
 */
export async function confirmDiscordant(options: {
  context: StrategyContext;
  index: number;
  /** Name of the full-batch stage this confirms (stage names must be unique per run). */
  stage: string;
  batch: Task[];
  full: PairedComparison;
  before: PassMap;
  after: PassMap;
  parent: LoadedHarness;
  candidate: LoadedHarness;
  samples: number;
}): Promise<SampleComparison> {
  const { context, index } = options;
  const discordant = new Set([...options.full.fixed, ...options.full.broken]);
  const tasks = options.batch.filter((task) => discordant.has(task.id));
  const run = (harness: LoadedHarness, side: string) =>
    context.stage(`${options.stage}-confirm-${side}`, () =>
      context.evaluate({
        tasks,
        harness,
        samples: options.samples,
        // The draws after the batch's own: the same indices diagnosis re-sampled failing tasks
        // at, so the parent's draws of the tasks it failed are already in the cache.
        firstSample: context.config.samples,
        label: `iteration ${index}: confirming flips (${side})`,
      }),
    );
  const [parentRun, candidateRun] = await Promise.all([
    run(options.parent, "parent"),
    run(options.candidate, "candidate"),
  ]);
  return compareSamples(
    withFirstDraw(outcomes(parentRun.records), new Map(options.before)),
    withFirstDraw(outcomes(candidateRun.records), new Map(options.after)),
  );
}
