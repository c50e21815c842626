import { diagnoseBatch } from "../diagnose/diagnose-batch.js";
import { refine } from "../refine/refine.js";
import { reflect } from "../refine/reflect.js";

/**
 * The LLM-backed stages the loop calls, typed with the stages' own signatures: the only part of
 * the loop tests replace (src/evolve/testing/fake-stages.ts). Everything else — evaluation, the
 * harness guards, the journal — is imported directly.
 */
export interface StagePort {
  /** Cross-instance diagnosis of a batch (src/diagnose). */
  diagnose: typeof diagnoseBatch;
  /** Collaborative refinement of systematic patterns (src/refine). */
  refine: typeof refine;
  /** The iterative baseline's reflector (src/refine). */
  reflect: typeof reflect;
}

/** The real stages. */
export const realStages: StagePort = { diagnose: diagnoseBatch, refine, reflect };
