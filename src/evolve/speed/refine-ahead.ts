import type { RefinementRecord } from "../../refine/refinement-record.js";
import type { RunContext } from "../run-context.js";
import { stageSchemas } from "../stage-schemas.js";
import type { IterationSteps } from "../strategies/steps.js";

/**
 * Starts the refinement while classification re-samples: wraps `diagnose` so that, once the
 * support test has sorted the patterns (before the re-samples), the refinement of those the
 * proposal would select (`followedBy.select`) starts in the background (`<refine stage>-ahead`);
 * wraps `refine` so that, when the proposal selects exactly those patterns after classification,
 * the refine stage takes that result (its own spend is then nothing). When classification drops
 * one, the early refinement is wasted and the refinement runs on what is left.
 */
export function refineAhead(inner: IterationSteps, context: RunContext): IterationSteps {
  const early = new Map<string, { ids: string; work: Promise<RefinementRecord> }>();
  return {
    ...inner,
    diagnose(step) {
      const { followedBy } = step;
      if (!followedBy) return inner.diagnose(step);
      return inner.diagnose({
        ...step,
        request: {
          ...step.request,
          onSupported: (patterns) => {
            const expected = followedBy.select(patterns);
            if (expected.length === 0) return;
            const ahead = { stage: `${followedBy.stage}-ahead`, request: followedBy.request };
            early.set(followedBy.stage, {
              ids: idsOf(expected),
              work: context.background(() =>
                inner.refine({ ...ahead, request: { ...ahead.request, patterns: expected } }),
              ),
            });
          },
        },
      });
    },
    refine(step) {
      const ahead = early.get(step.stage);
      early.delete(step.stage);
      if (!ahead || ahead.ids !== idsOf(step.request.patterns)) return inner.refine(step);
      return context.stage(
        step.stage,
        () => ahead.work.catch(() => context.stages.refine(step.request)),
        stageSchemas.refinement,
      );
    },
  };
}

function idsOf(patterns: { id: string }[]): string {
  return patterns.map((pattern) => pattern.id).join(",");
}
