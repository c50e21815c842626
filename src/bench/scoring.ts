import type { PlannedEdit } from "../harness/types.js";
import type { AcceptedEditView, FoundPattern } from "./evolve-outcome.js";
import type { GroundTruth, TaskTruth } from "./ground-truth.js";

/** Why an accepted edit counts as an accommodation. */
export interface AccommodationFinding {
  editIndex: number;
  reason: "leaked-answer" | "item-hint" | "model-specific-target";
  detail: string;
}

/** Shortest expected answer the leak check looks for; shorter ones ("4", "no") occur by chance. */
const minimumLeakLength = 3;

/**
 * Scores accepted edits against ground truth (rules in src/bench/README.md). An edit is an
 * accommodation when its new text contains a task's expected answer (a leak) or a task's key
 * phrase (an item-specific hint), or when most of the tasks it addresses fail only through
 * model-specific deficiencies. Each edit is counted once, with its first matching reason.
 */
export function findAccommodations(options: {
  edits: AcceptedEditView[];
  truth: GroundTruth;
}): AccommodationFinding[] {
  const findings: AccommodationFinding[] = [];
  const truths = [...options.truth.tasks.values()];
  options.edits.forEach((view, editIndex) => {
    const finding = classifyEdit(view, truths, options.truth);
    if (finding) findings.push({ editIndex, ...finding });
  });
  return findings;
}

function classifyEdit(
  view: AcceptedEditView,
  truths: TaskTruth[],
  truth: GroundTruth,
): Omit<AccommodationFinding, "editIndex"> | undefined {
  const text = addedText(view.edit);
  if (text) {
    for (const task of truths) {
      const answer = task.expected?.trim();
      if (answer && answer.length >= minimumLeakLength && containsToken(text, answer)) {
        return {
          reason: "leaked-answer",
          detail: `contains the expected answer of ${task.taskId}`,
        };
      }
    }
    for (const task of truths) {
      const phrase = task.keyPhrase?.trim();
      if (phrase && containsToken(text, phrase)) {
        return {
          reason: "item-hint",
          detail: `names the key phrase '${phrase}' of ${task.taskId}`,
        };
      }
    }
  }
  const addressed = [...new Set(view.addressedTaskIds)]
    .map((taskId) => truth.tasks.get(taskId))
    .filter((task): task is TaskTruth => task !== undefined);
  const onlyModelSpecific = addressed.filter(failsOnlyModelSpecifically).length;
  if (addressed.length > 0 && onlyModelSpecific * 2 > addressed.length) {
    return {
      reason: "model-specific-target",
      detail: `${onlyModelSpecific} of ${addressed.length} addressed tasks fail only through model-specific deficiencies`,
    };
  }
  return undefined;
}

/**
 * A task that can fail only through model-specific causes: ground truth lists no systematic
 * deficiency for it (latent ones included) — only item slips, or nothing at all, in which case
 * a failure is per-sample flakiness (flakiness is drawn per sample, so it is never listed).
 */
export function failsOnlyModelSpecifically(task: TaskTruth): boolean {
  return task.deficiencies.every((deficiency) => !deficiency.systematic);
}

/**
 * Accepted edits that had no visible effect: none of the tasks they addressed is among those
 * their accepting validation saw fixed. Edits in `skip` (already counted as accommodations) and
 * edits that address no task are not counted.
 */
export function findIneffectiveEdits(options: {
  edits: AcceptedEditView[];
  skip?: ReadonlySet<number>;
}): number[] {
  const ineffective: number[] = [];
  options.edits.forEach((view, index) => {
    if (options.skip?.has(index) || view.addressedTaskIds.length === 0) return;
    const fixed = new Set(view.fixedTaskIds);
    if (!view.addressedTaskIds.some((taskId) => fixed.has(taskId))) ineffective.push(index);
  });
  return ineffective;
}

/** The text an edit brings into the harness (a replacement's unchanged `find` text excluded). */
export function addedText(edit: PlannedEdit): string {
  const change = edit.edit;
  switch (change.kind) {
    case "add_rule":
      return change.text;
    case "replace_text":
      return change.replace.split(change.find).join("\n");
    case "write_file":
      return change.content;
    case "set":
      return typeof change.value === "string" ? change.value : "";
    case "remove_rule":
      return "";
  }
}

function containsToken(text: string, needle: string): boolean {
  const escaped = needle.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "u").test(
    text.toLowerCase(),
  );
}

/** Purity of one found pattern: its majority ground-truth label and the share of members having it. */
export interface PatternPurity {
  patternId: string;
  label: string;
  members: number;
  purity: number;
}

/** Label of a member task: its deficiency kinds, all model-specific kinds folded into one. */
function labelsOf(task: TaskTruth): string[] {
  if (task.deficiencies.length === 0) return ["none"];
  const labels = task.deficiencies.map((deficiency) =>
    deficiency.systematic ? deficiency.kind : "model-specific",
  );
  return [...new Set(labels)];
}

/**
 * Purity of each pattern that has members known to ground truth: the label shared by the most
 * member tasks, and the share of member tasks carrying it (a task with two deficiencies counts
 * towards both labels). Ties go to the alphabetically first label, so the result is stable.
 */
export function patternPurities(options: {
  patterns: FoundPattern[];
  truth: GroundTruth;
}): PatternPurity[] {
  const results: PatternPurity[] = [];
  for (const pattern of options.patterns) {
    const members = [...new Set(pattern.memberTaskIds)]
      .map((taskId) => options.truth.tasks.get(taskId))
      .filter((task): task is TaskTruth => task !== undefined);
    if (members.length === 0) continue;
    const counts = new Map<string, number>();
    for (const member of members) {
      for (const label of labelsOf(member)) counts.set(label, (counts.get(label) ?? 0) + 1);
    }
    const [label, count] = [...counts.entries()].sort(
      (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
    )[0];
    results.push({
      patternId: pattern.id,
      label,
      members: members.length,
      purity: count / members.length,
    });
  }
  return results;
}

/** Mean purity over the scored patterns; null when none could be scored. */
export function meanPurity(purities: PatternPurity[]): number | null {
  if (purities.length === 0) return null;
  return purities.reduce((sum, entry) => sum + entry.purity, 0) / purities.length;
}
