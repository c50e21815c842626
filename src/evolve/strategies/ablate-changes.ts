import type { Task } from "../../config/task-schema.js";
import type { LoadedHarness, PlannedEdit } from "../../harness/types.js";
import { comparePaired, type PairedComparison, type PassMap } from "../acceptance.js";
import { passMapOf, restrictPassMap } from "../records.js";
import type { StrategyContext } from "../types.js";
import type { ChangeAttribution } from "./attribution.js";

/** One change of a rejected bundle, tried alone on the parent harness. */
export interface AblatedChange {
  edits: PlannedEdit[];
  patternNames: string[];
  /** Its own comparison on the bundle's flipped tasks plus its own failing targets. */
  alone: PairedComparison;
  /** Kept: alone it fixes more than it breaks. */
  kept: boolean;
}

/**
 * When a bundle of changes is rejected, tries each change alone on the parent harness — all
 * concurrently, on the tasks the bundle flipped plus the change's own failing targets — and keeps
 * the changes that fix more than they break on their own. One change that breaks tasks (say, a
 * tool that exposes a latent failure) then no longer sinks the good changes it was bundled with.
 */
export async function ablateChanges(options: {
  context: StrategyContext;
  index: number;
  /** Prefix of the journal stages. */
  scope: string;
  batch: Task[];
  before: PassMap;
  parent: LoadedHarness;
  changes: ChangeAttribution[];
  flipped: string[];
}): Promise<AblatedChange[]> {
  const { context, index, before } = options;
  return Promise.all(
    options.changes.map(async (change, position) => {
      const ids = new Set([...options.flipped, ...change.targets]);
      const tasks = options.batch.filter((task) => ids.has(task.id));
      const patternNames = change.patterns.map((pattern) => pattern.name);
      const alone = context.deps.applyEdits({
        harness: options.parent,
        edits: change.edits,
        guard: context.guard,
      }).harness;
      const run = await context.stage(`${options.scope}/ablate-${position + 1}`, () =>
        context.evaluate({
          tasks,
          harness: alone,
          label: `iteration ${index}: ${patternNames.join(", ")} alone`,
        }),
      );
      const comparison = comparePaired(restrictPassMap(before, ids), passMapOf(run.result));
      return {
        edits: change.edits,
        patternNames,
        alone: comparison,
        kept: comparison.fixed.length > comparison.broken.length,
      };
    }),
  );
}
