/** Cross-instance diagnosis: evidence, aggregation into failure patterns, classification. */

export {
  aggregateFailures,
  type FailureGroup,
  groupEvidence,
  suspectedModule,
} from "./aggregate.js";
export { classifyPatterns, type Probe, type Resample } from "./classify.js";
export { type DiagnosisReport, diagnoseBatch, diagnosisReportSchema } from "./diagnose-batch.js";
export {
  type Evidence,
  evidenceSchema,
  extractBatchEvidence,
  extractEvidence,
  parseNumber,
} from "./evidence.js";
export {
  defaultNotesPerCall,
  defaultNotesPerSignature,
  failuresToNote,
  kebabCause,
  writeFailureNotes,
} from "./failure-notes.js";
export {
  type ClassificationReason,
  classificationReasonSchema,
  type FailurePattern,
  failurePatternSchema,
  type PatternExample,
  patternExampleSchema,
  patternId,
} from "./failure-pattern.js";
export { HeldoutSeal, refuseHeldout } from "./heldout-guard.js";
export { spreadMembers, toExample } from "./pattern-examples.js";
export { renderTemplate } from "./prompts/render-template.js";
export { askStructured, isStructuredOutputFailure } from "./structured-ask.js";
export { evidenceBlock, redactSecrets, untrustedText } from "./untrusted-text.js";
