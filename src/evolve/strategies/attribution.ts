import type { Task } from "../../config/task-schema.js";
import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { tasksNaming } from "../../harness/index.js";
import type { LabelFlag, PlannedEdit } from "../../harness/types.js";
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
  /**
   * Set only for an edit that names one train task's item (a `one-task` label word): batch tasks
   * whose input carries that name. Such an edit is a change of its own whose credit is always
   * checked, and a fix of a task it names is never its credit.
   */
  names?: string[];
}

/** Per applied edit that names one train task's item, the batch tasks carrying that name. */
export type ItemNames = ReadonlyMap<PlannedEdit, readonly string[]>;

/**
 * The applied edits the guards flagged for naming one train task's item (`one-task` label
 * words), each with the batch tasks whose input carries the name (none when that task is not in
 * the batch). Flags are matched to the applied edits by content: a resumed run reads them back.
 */
export function itemNamesOf(options: {
  applied: readonly PlannedEdit[];
  flags: readonly LabelFlag[];
  batch: readonly Task[];
}): ItemNames {
  const phrasesOf = new Map(
    options.flags.map((flag) => [
      JSON.stringify(flag.edit),
      flag.words.filter((word) => word.why === "one-task").map((word) => word.text),
    ]),
  );
  const names = new Map<PlannedEdit, string[]>();
  for (const edit of options.applied) {
    const phrases = phrasesOf.get(JSON.stringify(edit)) ?? [];
    if (phrases.length > 0) names.set(edit, tasksNaming(phrases, options.batch));
  }
  return names;
}

/**
 * Splits the applied edits into changes (grouped by the patterns each edit names; an edit naming
 * none of the addressed patterns aims at all of them; an edit in `itemNames` alone) and counts,
 * per change, the failing members of its own patterns that cheap validation fixed (never a task
 * the change names), and those that now fail differently (never for an edit naming an item: a
 * hint for one task does not unmask its pattern's failures; the fix it rides with does).
 */
export function attributeChanges(options: {
  applied: PlannedEdit[];
  addressed: FailurePattern[];
  before: PassMap;
  cheap: PairedComparison;
  itemNames?: ItemNames;
}): ChangeAttribution[] {
  const { addressed, before, cheap } = options;
  const groups = new Map<string, { edits: PlannedEdit[]; patterns: FailurePattern[] }>();
  options.applied.forEach((edit, position) => {
    const named = addressed.filter(
      (pattern) => edit.patterns.includes(pattern.id) || edit.patterns.includes(pattern.name),
    );
    const patterns = named.length > 0 ? named : addressed;
    const own = options.itemNames?.has(edit) ? `item ${position}:` : "";
    const key = own + patterns.map((pattern) => pattern.id).join(",");
    const group = groups.get(key) ?? { edits: [], patterns };
    group.edits.push(edit);
    groups.set(key, group);
  });
  const fixed = new Set(cheap.fixed);
  const shifted = new Set(cheap.shifted ?? []);
  return [...groups.values()].map(({ edits, patterns }) => {
    const names = options.itemNames?.get(edits[0]);
    const targets = [
      ...new Set(
        patterns
          .flatMap((pattern) => pattern.taskIds)
          .filter((taskId) => before.get(taskId) === false),
      ),
    ];
    const credited = targets.filter((taskId) => fixed.has(taskId) && !names?.includes(taskId));
    return {
      edits,
      patterns,
      targets,
      fixed: credited,
      // A target failing differently under the bundle is another change's doing, never an item's.
      shifted: names ? [] : targets.filter((taskId) => shifted.has(taskId)),
      ...(names ? { names: [...names] } : {}),
    };
  });
}

/** The changes attribution prunes (`fixedOwnTargets` refuses them), as the pruning stage records them. */
export function prunedChanges(attributions: ChangeAttribution[]): ChangeOutcome[] {
  // A change with no failing target in the batch (e.g. one that repairs what another change
  // broke) cannot be judged this way; it is left to the paired tests — unless it names one train
  // task's item: such an edit stays only for fixes of its pattern, and there are none to make.
  return attributions.flatMap((change) => {
    if (change.targets.length === 0 && !change.names) return [];
    const patternNames = change.patterns.map((pattern) => pattern.name);
    const decision = fixedOwnTargets({
      targets: change.targets.length,
      fixed: change.fixed.length,
      shifted: change.shifted.length,
      patternNames,
    });
    if (decision.accepted) return [];
    const named = change.names
      ? `; it names one train task's item${change.names.length > 0 ? ` (${change.names.join(", ")})` : ""}, kept only for fixes of its pattern`
      : "";
    return [
      {
        edits: change.edits,
        patterns: patternNames,
        patternIds: change.patterns.map((pattern) => pattern.id),
        kept: false,
        targets: change.targets.length,
        reason:
          (change.targets.length > 0
            ? decision.reason
            : `no member of ${patternNames.join(", ")} failed in the batch before it`) + named,
      },
    ];
  });
}
