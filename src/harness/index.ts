/** Harness stage: load, hash, render, diff, guarded edits and atomic writes of a harness folder. */
export { type ApplyEditsResult, applyEdits } from "./apply-edits.js";
export { guardedFiles } from "./content-guards.js";
export { diffHarness, type HarnessDiff } from "./diff-harness.js";
export { matchGlob } from "./glob.js";
export { type GuardContext, guardContextSchema } from "./guard-context.js";
export { harnessHash } from "./hash.js";
export { tasksNaming } from "./item-phrases.js";
export {
  expectedAnswerStrings,
  type LabelReason,
  type LabelWord,
  labelWordSchema,
  labelWords,
} from "./label-words.js";
export { loadHarness, maxHarnessFileBytes, maxHarnessFiles } from "./load-harness.js";
export { harnessRules, parseRules, renderSystemPrompt } from "./render.js";
export type {
  GuardRejection,
  HarnessEdit,
  LabelFlag,
  LoadedHarness,
  PlannedEdit,
} from "./types.js";
export {
  guardRejectionSchema,
  harnessEditSchema,
  labelFlagSchema,
  plannedEditSchema,
} from "./types.js";
export { type HarnessWorkspace, openHarnessWorkspace } from "./workspace.js";
export { writeHarness } from "./write-harness.js";
export { typedSetting } from "./yaml-set.js";
