import type { LoadedHarness, PlannedEdit } from "../../harness/types.js";
import { ablationRetry, helpsAlone } from "../acceptance.js";
import { rebuildCandidate } from "../guard.js";
import { comparePaired, type PairedComparison } from "../paired-test.js";
import { passMapOf, restrictPassMap } from "../records.js";
import { stageSchemas } from "../stage-schemas.js";
import type { ChangeOutcome } from "../validation.js";
import { attributeChanges, type ChangeAttribution } from "./attribution.js";
import { ecdysisStep, type Validation } from "./ecdysis-validate.js";

/**
 * When a bundle of changes is rejected on the full batch, tries each change alone on the parent
 * harness — all concurrently, on the tasks the bundle flipped plus the change's own failing
 * targets — and keeps the changes that help alone (`helpsAlone`). One change that breaks tasks
 * (say, a tool that exposes a latent failure) then no longer sinks the good changes it was
 * bundled with. A change whose files do not parse alone (a command harness) is not run and not
 * kept. Records an `ablation` stage (a `retry`: the stages after it validate the rebuilt
 * candidate); returns the candidate rebuilt from the kept changes when some, but not all, were
 * kept (and it parses).
 */
export async function ablateRejected(options: {
  validation: Validation;
  kept: PlannedEdit[];
  cheap: PairedComparison;
  full: PairedComparison;
}): Promise<LoadedHarness | undefined> {
  const { validation } = options;
  const { context, before, parent } = validation;
  const changes = attributeChanges({
    applied: options.kept,
    addressed: validation.addressed,
    before,
    cheap: options.cheap,
    itemNames: validation.itemNames,
  });
  if (changes.length < 2) return undefined;
  const flipped = [...options.full.fixed, ...options.full.broken];
  const ablated = await Promise.all(
    changes.map((change, position) => tryAlone({ validation, change, position, flipped })),
  );
  const retry = ablationRetry(ablated);
  validation.stages.push({
    step: ecdysisStep.ablation,
    role: "retry",
    changes: ablated,
    decision: retry,
  });
  if (!retry.accepted) return undefined;
  const helping = ablated.filter((change) => change.kept);
  const rebuilt = rebuildCandidate({
    parent,
    edits: helping.flatMap((change) => change.edits),
    guard: context.guard,
  });
  if (await context.checkCandidate?.({ candidate: rebuilt.harness, parent })) return undefined;
  validation.candidates.set(rebuilt.harness.hash, {
    harness: rebuilt.harness,
    kept: rebuilt.applied,
  });
  return rebuilt.harness;
}

/** One change alone on the parent, on the tasks its bundle flipped plus its own failing targets. */
async function tryAlone(options: {
  validation: Validation;
  change: ChangeAttribution;
  position: number;
  flipped: string[];
}): Promise<ChangeOutcome> {
  const { validation, change, position } = options;
  const { context, scope, before, parent } = validation;
  const ids = new Set([...options.flipped, ...change.targets]);
  const tasks = validation.batch.filter((task) => ids.has(task.id));
  const patterns = change.patterns.map((pattern) => pattern.name);
  const alone = rebuildCandidate({ parent, edits: change.edits, guard: context.guard });
  // Alone on the parent its files may not parse (an edit that needs another): not run, not kept.
  const unparsable = await context.checkCandidate?.({ candidate: alone.harness, parent });
  if (unparsable) {
    const none = { fixed: 0, broken: 0 };
    const reason = helpsAlone(none).reason;
    return { edits: change.edits, patterns, ...none, kept: false, reason, unrun: unparsable };
  }
  const run = await scope.stage(
    `ablate-${position + 1}`,
    () =>
      context.evaluate({
        tasks,
        harness: alone.harness,
        label: `iteration ${scope.index}: ${patterns.join(", ")} alone`,
      }),
    stageSchemas.evaluation,
  );
  const comparison = comparePaired(restrictPassMap(before, ids), passMapOf(run.result));
  // A task the change names (one train task's item) is no evidence that it helps.
  const fixed = comparison.fixed.filter((id) => !change.names?.includes(id));
  const counts = { fixed: fixed.length, broken: comparison.broken.length };
  const judged = helpsAlone(counts);
  return { edits: change.edits, patterns, ...counts, kept: judged.accepted, reason: judged.reason };
}
