import { parseHarnessYaml } from "../config/harness-yaml.js";
import { applyToText, editTarget } from "../harness/edit-operations.js";
import type { LoadedHarness, PlannedEdit } from "../harness/types.js";

/** A span of a file's current text that an edit of this proposal wrote, and who wrote it. */
interface Region {
  start: number;
  end: number;
  change: number;
  /** The text the edit brought (what a later whole-file write must keep). */
  text: string;
}

/** Why an edit could not join the proposal; `redraft`: drafting its change again may fix it. */
export interface CompositionConflict {
  edit: PlannedEdit;
  reason: string;
  redraft: boolean;
}

/** The fate of one change's edits on the proposal as it stands. */
export interface ChangeComposition {
  accepted: PlannedEdit[];
  conflicts: CompositionConflict[];
}

/**
 * Composes the edits of one proposal in order on an in-memory copy of the harness, so that no
 * edit silently undoes another: an edit whose `find` an earlier change rewrote (stale), that
 * quotes a passage an earlier edit wrote, or a whole-file write that drops an earlier edit's text
 * conflicts; so does setting a field an earlier edit set to another value. A change whose edits
 * conflict with earlier changes can be drafted again on `current()` (the harness as it stands).
 */
export class EditComposer {
  private readonly files: Record<string, string>;
  private readonly regions = new Map<string, Region[]>();
  private readonly setBy = new Map<string, { value: unknown; change: number }>();

  constructor(private readonly base: LoadedHarness) {
    this.files = { ...base.files };
  }

  /** The harness with the edits composed so far (hash unchanged: a draft view, not a candidate). */
  current(): LoadedHarness {
    let config = this.base.config;
    if (
      this.base.kind === "builtin" &&
      this.files["harness.yaml"] !== this.base.files["harness.yaml"]
    ) {
      try {
        config = parseHarnessYaml("harness.yaml", this.files["harness.yaml"] ?? "");
      } catch {
        // An edit that breaks harness.yaml is the guards' to refuse; the view keeps the old config.
      }
    }
    return { ...this.base, files: { ...this.files }, config };
  }

  /**
   * Tries the edits of change `change` in order. With `commit` the accepted ones are kept;
   * without, nothing changes (used to decide whether to re-draft the change first).
   */
  add(change: number, edits: PlannedEdit[], options: { commit: boolean }): ChangeComposition {
    const state: State = {
      files: { ...this.files },
      regions: new Map([...this.regions].map(([file, list]) => [file, [...list]])),
      setBy: new Map(this.setBy),
    };
    const result: ChangeComposition = { accepted: [], conflicts: [] };
    for (const planned of edits) {
      const conflict = this.place(planned, change, state);
      if (conflict) result.conflicts.push({ edit: planned, ...conflict });
      else result.accepted.push(planned);
    }
    if (options.commit) {
      Object.assign(this.files, state.files);
      for (const [file, list] of state.regions) this.regions.set(file, list);
      for (const [path, entry] of state.setBy) this.setBy.set(path, entry);
    }
    return result;
  }

  /** Applies one edit to `state`, or says why it cannot join the proposal. */
  private place(
    planned: PlannedEdit,
    change: number,
    state: State,
  ): Omit<CompositionConflict, "edit"> | undefined {
    const target = editTarget(planned.edit, this.base.config);
    if ("reason" in target) return { reason: target.reason, redraft: false };
    const file = target.file;
    const before = state.files[file];
    const applied = applyToText(planned.edit, before);
    if (!applied.ok) {
      const original = applyToText(planned.edit, this.base.files[file]);
      const stale = original.ok && before !== this.base.files[file];
      return stale
        ? {
            reason: `${applied.reason}: an earlier edit of this proposal changed '${file}'`,
            redraft: true,
          }
        : { reason: applied.reason, redraft: false };
    }
    if (planned.edit.kind === "set") {
      const previous = state.setBy.get(planned.edit.path);
      if (previous && previous.value !== planned.edit.value)
        return {
          reason: `${planned.edit.path} was already set to ${JSON.stringify(previous.value)} by change ${previous.change + 1}; one proposal sets a field once`,
          redraft: false,
        };
    }
    const earlier = state.regions.get(file) ?? [];
    const clash = overlapping(planned, before ?? "", earlier);
    if (clash) {
      const who =
        clash.change === change
          ? "an earlier edit of the same change"
          : `change ${clash.change + 1}`;
      const reason =
        planned.edit.kind === "write_file"
          ? `would overwrite the edit of ${who} to '${file}' (its text is not kept)`
          : `quotes a passage of '${file}' that the edit of ${who} wrote`;
      return { reason, redraft: clash.change !== change };
    }
    if (planned.edit.kind === "set")
      state.setBy.set(planned.edit.path, { value: planned.edit.value, change });
    state.regions.set(file, record(earlier, before ?? "", applied.text, change));
    state.files[file] = applied.text;
    return undefined;
  }
}

interface State {
  files: Record<string, string>;
  regions: Map<string, Region[]>;
  setBy: Map<string, { value: unknown; change: number }>;
}

/** The earlier region this edit would undo or quote, if any. */
function overlapping(planned: PlannedEdit, before: string, earlier: Region[]): Region | undefined {
  const edit = planned.edit;
  if (edit.kind === "write_file")
    return earlier.find((region) => region.text !== "" && !edit.content.includes(region.text));
  let start: number;
  let end: number;
  if (edit.kind === "replace_text") {
    start = before.indexOf(edit.find);
    end = start + edit.find.length;
  } else {
    const span = changedSpan(before, applyText(planned, before));
    start = span.start;
    end = span.beforeEnd;
  }
  return earlier.find((region) =>
    region.start === region.end
      ? start < region.start && region.start < end
      : start < region.end && region.start < end,
  );
}

function applyText(planned: PlannedEdit, before: string): string {
  const applied = applyToText(planned.edit, before);
  return applied.ok ? applied.text : before;
}

/** Where `after` differs from `before`: common prefix and suffix cut off. */
function changedSpan(before: string, after: string) {
  let start = 0;
  const limit = Math.min(before.length, after.length);
  while (start < limit && before[start] === after[start]) start++;
  let suffix = 0;
  while (
    suffix < limit - start &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  )
    suffix++;
  return { start, beforeEnd: before.length - suffix, afterEnd: after.length - suffix };
}

/** The regions after an edit: those past it shifted, those it touched folded into its own. */
function record(earlier: Region[], before: string, after: string, change: number): Region[] {
  const span = changedSpan(before, after);
  const delta = after.length - before.length;
  const kept: Region[] = [];
  for (const region of earlier) {
    if (region.end <= span.start) kept.push(region);
    else if (region.start >= span.beforeEnd)
      kept.push({ ...region, start: region.start + delta, end: region.end + delta });
  }
  kept.push({
    start: span.start,
    end: span.afterEnd,
    change,
    text: after.slice(span.start, span.afterEnd),
  });
  return kept.sort((a, b) => a.start - b.start);
}
