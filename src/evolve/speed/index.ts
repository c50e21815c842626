import type { RunContext } from "../run-context.js";
import type { IterationSteps } from "../strategies/steps.js";
import { prefetchDiagnosis } from "./prefetch-diagnosis.js";
import { refineAhead } from "./refine-ahead.js";

/**
 * The speed tricks, as wrappers around an iteration's steps. Each only starts work early — the
 * refinement while classification re-samples, the next diagnosis while flips are re-drawn, the
 * Editor while the Skeptic reviews — and hands the results on
 * through the call cache or as the same value, so with them removed the results are the same
 * and only slower (src/evolve/speed/speed.test.ts shows it). They need the call cache.
 * One more is called by the validation itself, since only it knows a cheap run was promising:
 * `fullBatchAhead` (full-ahead.ts) runs the rest of the batch while pruning runs.
 * What each bought: docs/bench/speed-log.md.
 */
export function withSpeedups(plain: IterationSteps, context: RunContext): IterationSteps {
  return speculativeEditor(refineAhead(prefetchDiagnosis(plain, context), context));
}

/**
 * Lets the Editor draft while the Skeptic reviews (src/refine's `speculativeEditor`), in every
 * refinement the steps run — the ones refine-ahead starts early included.
 */
function speculativeEditor(inner: IterationSteps): IterationSteps {
  return {
    ...inner,
    diagnose: (step) =>
      inner.diagnose(
        step.followedBy
          ? {
              ...step,
              followedBy: {
                ...step.followedBy,
                request: { ...step.followedBy.request, speculativeEditor: true },
              },
            }
          : step,
      ),
    refine: (step) =>
      inner.refine({ ...step, request: { ...step.request, speculativeEditor: true } }),
  };
}
