import type { Task } from "../../config/task-schema.js";
import type { RolloutRecord } from "../../eval/types.js";
import type { LoadedHarness } from "../../harness/types.js";
import type { StrategyContext } from "../types.js";

/**
 * While a candidate's flipped tasks are re-drawn (agent work), the refiner writes the merge for
 * the candidate's failures on this batch (their notes were written while they ran, see
 * `stream-notes.ts`, and are found in the call cache here). When the batch is the whole
 * train split and the call cache is on, an accepted candidate's next iteration diagnoses exactly
 * these records and makes exactly these calls: it joins the ones still in flight and finds the
 * others in the call cache. A rejected candidate's calls were spent for nothing. Only refiner
 * calls (no re-samples, no probe), so the re-draws keep the agent slots. Meant for
 * `context.background`, which ignores a failure here: the real diagnosis meets it again.
 */
export async function prefetchDiagnosis(options: {
  context: StrategyContext;
  /** Journal stage name. */
  stage: string;
  batch: Task[];
  /** The candidate's records on the batch. */
  records: RolloutRecord[];
  candidate: LoadedHarness;
}): Promise<void> {
  const { context, batch, records } = options;
  const reused = context.callCache && batch.length === context.train.length;
  if (!reused || records.every((record) => record.verdict.pass)) return;
  await context.stage(options.stage, async () => {
    await context.deps.diagnose({
      records,
      tasks: batch,
      refiner: context.models.refiner,
      minSupport: context.config.evolve.minSupport,
      resamples: 0,
      stepLimit: options.candidate.config?.agent_loop.max_steps,
    });
    return null;
  });
}
