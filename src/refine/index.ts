/** Failure-Driven Collaborative Refinement: the roles, the HMS, and the iterative reflector. */

/** Re-exported so callers of refine find the pattern and evidence types in one place. */
export type { Evidence, FailurePattern } from "../diagnose/index.js";
export { collaborate } from "./collaborate.js";
export { type EditorResult, runEditor } from "./editor.js";
export { type HarnessView, harnessView, type ShownFile } from "./harness-view.js";
export { architectTemplate } from "./prompts/architect.js";
export { diagnosticianTemplate } from "./prompts/diagnostician.js";
export { editorTemplate } from "./prompts/editor.js";
export { skepticTemplate } from "./prompts/skeptic.js";
export { refine } from "./refine.js";
export {
  type DebateRound,
  type DroppedEdit,
  debateRoundSchema,
  droppedEditSchema,
  type RefinementRecord,
  type RoleTurn,
  refinementRecordSchema,
  refinementSummary,
  roleTurnSchema,
  summariseHms,
} from "./refinement-record.js";
export { minibatchPattern, reflect } from "./reflect.js";
export {
  type Critique,
  critiqueSchema,
  type Diagnosis,
  diagnosisSchema,
  type Hms,
  hmsChangeSchema,
  hmsSchema,
  type RejectedProposal,
  rejectedProposalSchema,
  roleJsonSchemas,
} from "./role-schemas.js";
