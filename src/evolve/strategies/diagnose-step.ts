import type { Task } from "../../config/task-schema.js";
import type { RolloutRecord } from "../../eval/types.js";
import type { LoadedHarness } from "../../harness/types.js";
import type { DiagnosisView, PatternView } from "../stage-views.js";
import type { StrategyContext } from "../types.js";

function tasksOf(records: RolloutRecord[], tasks: Task[]): Task[] {
  const ids = new Set(records.map((record) => record.taskId));
  return tasks.filter((task) => ids.has(task.id));
}

/**
 * The journaled diagnosis stage of one ecdysis iteration: cross-instance diagnosis of the batch,
 * with re-samples of failing members and (when configured) probe-model runs as its callbacks.
 * With the call cache on, `onSupported` is told which patterns passed the support test while
 * their re-samples run.
 */
export function diagnoseStep(options: {
  context: StrategyContext;
  index: number;
  batch: Task[];
  records: RolloutRecord[];
  harness: LoadedHarness;
  onSupported?: (patterns: PatternView[]) => void;
}): Promise<DiagnosisView> {
  const { context, index, batch, harness } = options;
  const { config, deps, models } = context;
  const evolve = config.evolve;
  return context.stage(`iteration-${index}/diagnose`, () =>
    deps.diagnose({
      onSupported: context.callCache ? options.onSupported : undefined,
      records: options.records,
      tasks: batch,
      refiner: models.refiner,
      minSupport: evolve.minSupport,
      resamples: evolve.resamples,
      agentTemperature: config.model.temperature,
      stepLimit: harness.config?.agent_loop.max_steps,
      resample:
        evolve.resamples > 0
          ? async (records, k) =>
              (
                await context.evaluate({
                  tasks: tasksOf(records, batch),
                  harness,
                  samples: k,
                  firstSample: config.samples,
                  label: `iteration ${index}: re-sampling failures`,
                })
              ).records
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
}
