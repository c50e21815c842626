import type { Task } from "../../config/task-schema.js";
import type { RolloutRecord } from "../../eval/types.js";
import type { LoadedHarness } from "../../harness/types.js";
import type { RunContext } from "../run-context.js";
import type { IterationSteps } from "../strategies/steps.js";

/** What `openNoteStream` hands the evaluation it watches. */
interface NoteStream {
  /** Pass as the evaluation's `onRecord`. */
  onRecord: (record: RolloutRecord) => void;
  /** Call once the evaluation is over (whatever its outcome). */
  close(): void;
}

/**
 * Notes failures as they come in: wraps `evaluate` so that the failure note of each failing
 * rollout is written as soon as it is scored, while the rest still runs. A later diagnosis of
 * these records (the batch's, or the next iteration's when this harness is accepted) finds
 * those calls in the call cache or joins them in flight, instead of starting them after the
 * whole batch. Only fresh rollouts of a run's own draws (sample indices below `samples`, not
 * re-draws); the notes of a rejected candidate are spent for nothing.
 */
export function streamNotes(inner: IterationSteps, context: RunContext): IterationSteps {
  return {
    ...inner,
    async evaluate(step) {
      const stream = openNoteStream({ context, ...step });
      try {
        return await inner.evaluate({ ...step, onRecord: stream.onRecord });
      } finally {
        stream.close();
      }
    },
  };
}

/**
 * The note calls run in a background journal stage of their own (`<stage>-notes`), so their
 * spend is recorded there; a failed call is left to the diagnosis, which meets it again.
 */
function openNoteStream(options: {
  context: RunContext;
  /** Journal stage of the watched evaluation. */
  stage: string;
  tasks: Task[];
  /** The harness the evaluation runs (its step budget is part of each note's evidence). */
  harness: LoadedHarness;
}): NoteStream {
  const { context } = options;
  const tasks = new Map(options.tasks.map((task) => [task.id, task]));
  const stepLimit = options.harness.config?.agent_loop.max_steps;
  const pending: RolloutRecord[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  context.background(() =>
    context.stage(`${options.stage}-notes`, async () => {
      // Calls start from this loop, so they run (and are metered) inside this stage.
      const calls: Promise<unknown>[] = [];
      for (;;) {
        for (const record of pending.splice(0))
          calls.push(
            context.stages
              .noteFailure({
                record,
                task: tasks.get(record.taskId),
                refiner: context.models.refiner,
                stepLimit,
              })
              .catch(() => undefined),
          );
        if (closed) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      await Promise.all(calls);
      return null;
    }),
  );
  return {
    onRecord: (record) => {
      // A cached record was noted (if at all) by the evaluation that first ran it.
      if (record.verdict.pass || record.cached || record.sampleIndex >= context.config.samples)
        return;
      pending.push(record);
      notify();
    },
    close: () => {
      closed = true;
      notify();
    },
  };
}
