import type { RunContext } from "../run-context.js";
import type { IterationSteps } from "../strategies/steps.js";

/**
 * Prepares the next diagnosis while the flips are re-drawn: wraps `confirm` so that, while a
 * candidate's flipped tasks are re-drawn (agent work), the refiner writes the merge for the
 * candidate's failures on this batch (their notes and the merge). When the batch is the whole train
 * split, an accepted candidate's next iteration diagnoses exactly these records and makes
 * exactly these calls: it joins the ones still in flight and finds the others in the call
 * cache. A rejected candidate's calls were spent for nothing. Only refiner calls (no
 * re-samples, no probe), so the re-draws keep the agent slots. In the background
 * (`<stage>-prefetch-diagnosis`), whose failures are ignored: the real diagnosis meets them again.
 */
export function prefetchDiagnosis(inner: IterationSteps, context: RunContext): IterationSteps {
  return {
    ...inner,
    confirm(step) {
      const records = step.candidateRun.records;
      const reused = step.batch.length === context.train.length;
      if (reused && !records.every((record) => record.verdict.pass))
        context.background(() =>
          context.stage(`${step.stage}-prefetch-diagnosis`, async () => {
            await context.stages.diagnose({
              records,
              tasks: step.batch,
              refiner: context.models.refiner,
              minSupport: context.config.evolve.ecdysis.minSupport,
              resamples: 0,
              stepLimit: step.candidate.config?.agent_loop.max_steps,
            });
            return null;
          }),
        );
      return inner.confirm(step);
    },
  };
}
