import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import type { PlannedEdit } from "../../harness/types.js";
import { fixedOwnTargets } from "../acceptance.js";
import type { PairedComparison, PassMap } from "../paired-test.js";
import type { ChangeOutcome } from "../validation.js";

/** One change of a proposal (the edits naming the same patterns) and what it fixed of its own targets. */
export interface ChangeAttribution {
  edits: PlannedEdit[];
  /** The addressed patterns it aims at. */
  patterns: FailurePattern[];
  /** Failing members (task ids) of those patterns. */
  targets: string[];
  /** Targets that pass under the candidate. */
  fixed: string[];
  /** Targets that still fail under the candidate, but differently (`PairedComparison.shifted`). */
  shifted: string[];
}

/**
 * Splits the applied edits into changes (grouped by the patterns each edit names; an edit naming
 * none of the addressed patterns aims at all of them) and counts, per change, the failing members
 * of its own patterns that cheap validation fixed, and those that now fail differently.
 */
export function attributeChanges(options: {
  applied: PlannedEdit[];
  addressed: FailurePattern[];
  before: PassMap;
  cheap: PairedComparison;
}): ChangeAttribution[] {
  const { addressed, before, cheap } = options;
  const groups = new Map<string, { edits: PlannedEdit[]; patterns: FailurePattern[] }>();
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
  const shifted = new Set(cheap.shifted ?? []);
  return [...groups.values()].map(({ edits, patterns }) => {
    const targets = [
      ...new Set(
        patterns
          .flatMap((pattern) => pattern.taskIds)
          .filter((taskId) => before.get(taskId) === false),
      ),
    ];
    return {
      edits,
      patterns,
      targets,
      fixed: targets.filter((taskId) => fixed.has(taskId)),
      shifted: targets.filter((taskId) => shifted.has(taskId)),
    };
  });
}

/** The changes attribution prunes (`fixedOwnTargets` refuses them), as the pruning stage records them. */
export function prunedChanges(attributions: ChangeAttribution[]): ChangeOutcome[] {
  // A change with no failing target in the batch (e.g. one that repairs what another change
  // broke) cannot be judged this way; it is left to the paired tests.
  return attributions.flatMap((change) => {
    if (change.targets.length === 0) return [];
    const patternNames = change.patterns.map((pattern) => pattern.name);
    const decision = fixedOwnTargets({
      targets: change.targets.length,
      fixed: change.fixed.length,
      shifted: change.shifted.length,
      patternNames,
    });
    if (decision.accepted) return [];
    return [
      {
        edits: change.edits,
        patterns: patternNames,
        patternIds: change.patterns.map((pattern) => pattern.id),
        kept: false,
        targets: change.targets.length,
        reason: decision.reason,
      },
    ];
  });
}
