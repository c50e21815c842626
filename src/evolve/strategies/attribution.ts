import type { PlannedEdit } from "../../harness/types.js";
import type { PairedComparison, PassMap } from "../acceptance.js";
import type { PatternView } from "../stage-views.js";
import type { PrunedChange } from "../types.js";

/** One change of a proposal (the edits naming the same patterns) and what it fixed of its own targets. */
export interface ChangeAttribution {
  edits: PlannedEdit[];
  /** The addressed patterns it aims at. */
  patterns: PatternView[];
  /** Failing members (task ids) of those patterns. */
  targets: string[];
  /** Targets that pass under the candidate. */
  fixed: string[];
}

/**
 * Splits the applied edits into changes (grouped by the patterns each edit names; an edit naming
 * none of the addressed patterns aims at all of them) and counts, per change, the failing members
 * of its own patterns that cheap validation fixed.
 */
export function attributeChanges(options: {
  applied: PlannedEdit[];
  addressed: PatternView[];
  before: PassMap;
  cheap: PairedComparison;
}): ChangeAttribution[] {
  const { addressed, before, cheap } = options;
  const groups = new Map<string, { edits: PlannedEdit[]; patterns: PatternView[] }>();
  for (const edit of options.applied) {
    const named = addressed.filter(
      (pattern) => edit.patterns.includes(pattern.id) || edit.patterns.includes(pattern.name),
    );
    const patterns = named.length > 0 ? named : addressed;
    const key = patterns.map((pattern) => pattern.id).join(",");
    const group = groups.get(key) ?? { edits: [], patterns };
    group.edits.push(edit);
    groups.set(key, group);
  }
  const fixed = new Set(cheap.fixed);
  return [...groups.values()].map(({ edits, patterns }) => {
    const targets = [
      ...new Set(
        patterns
          .flatMap((pattern) => pattern.taskIds)
          .filter((taskId) => before.get(taskId) === false),
      ),
    ];
    return { edits, patterns, targets, fixed: targets.filter((taskId) => fixed.has(taskId)) };
  });
}

/** The changes that fixed none of their own targets, as recorded in the iteration. */
export function prunedChanges(attributions: ChangeAttribution[]): PrunedChange[] {
  // A change with no failing target in the batch (e.g. one that repairs what another change
  // broke) cannot be judged this way; it is left to the paired tests.
  return attributions
    .filter((change) => change.targets.length > 0 && change.fixed.length === 0)
    .map((change) => ({
      edits: change.edits,
      patterns: change.patterns.map((pattern) => pattern.id),
      patternNames: change.patterns.map((pattern) => pattern.name),
      targets: change.targets.length,
      reason: `fixed none of the ${change.targets.length} failing member(s) of ${change.patterns.map((pattern) => pattern.name).join(", ")} in cheap validation (possibly masked by another failure)`,
    }));
}
