/** Cross-instance diagnosis: evidence, aggregation into failure patterns, classification. */
export { diagnoseBatch, type DiagnosisReport, diagnosisReportSchema } from "./diagnose-batch.js";
export { type Evidence, evidenceSchema, extractBatchEvidence, extractEvidence, parseNumber } from "./evidence.js";
export {
  type ClassificationReason,
  classificationReasonSchema,
  type FailurePattern,
  failurePatternSchema,
  type PatternExample,
  patternExampleSchema,
  patternId,
} from "./failure-pattern.js";
export { type Probe, type Resample, classifyPatterns } from "./classify.js";
export { aggregateFailures, applyMerge, type FailureGroup, groupEvidence, suspectedModule } from "./aggregate.js";
export { defaultNotesPerCall, kebabCause, writeFailureNotes } from "./failure-notes.js";
export { toExample, spreadMembers } from "./pattern-examples.js";
export { refuseHeldout } from "./heldout-guard.js";
export { askStructured, evidencePreamble, isStructuredOutputFailure } from "./structured-ask.js";
export { evidenceBlock, redactSecrets, untrustedText } from "./untrusted-text.js";
export { renderTemplate } from "./prompts/render-template.js";
