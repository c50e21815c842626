import type { Task } from "../../config/task-schema.js";
import type { LoadedHarness } from "../../harness/types.js";
import type { RunContext } from "../run-context.js";
import { stageSchemas } from "../stage-schemas.js";

/**
 * Runs the rest of a full batch while attribution and credit per edit run: once a candidate's
 * cheap validation is promising, the batch tasks outside the cheap subset are evaluated under it
 * in the background (`<full stage>-ahead`), and the full batch that follows finds them in the
 * rollout cache — the same draws, so the same verdict, only sooner. The price: when pruning
 * changes the candidate, these rollouts were spent on a harness that is never validated (they
 * count toward the budget like any other). Not started when the budget left cannot carry them.
 * Resolves when the work is done; its failure is ignored (the full batch meets it again).
 */
export function fullBatchAhead(
  context: RunContext,
  step: { stage: string; tasks: Task[]; harness: LoadedHarness; label: string },
): Promise<void> {
  const left = context.rolloutsLeft?.();
  if (step.tasks.length === 0 || (left !== undefined && left < step.tasks.length))
    return Promise.resolve();
  const { tasks, harness, label } = step;
  return context
    .background(() =>
      context.stage(
        `${step.stage}-ahead`,
        () => context.evaluate({ tasks, harness, label }),
        stageSchemas.evaluation,
      ),
    )
    .then(
      () => undefined,
      () => undefined,
    );
}
