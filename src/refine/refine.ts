import type { Task } from "../config/task-schema.js";
import type { FailurePattern } from "../diagnose/failure-pattern.js";
import { refuseHeldout } from "../diagnose/heldout-guard.js";
import type { LoadedHarness } from "../harness/types.js";
import type { ChatProvider } from "../llm/types.js";
import { collaborate } from "./collaborate.js";
import type { RefinementRecord } from "./refinement-record.js";
import type { RejectedProposal } from "./role-schemas.js";

/**
 * Failure-Driven Collaborative Refinement on the systematic patterns of a diagnosis:
 * Diagnostician → Architect ⇄ Skeptic (up to `skepticRounds` revisions) → Editor. Model-specific
 * patterns are filtered out here too, whatever the caller passes. The planned edits are not yet
 * guarded; the caller applies them with the harness guards.
 */
export async function refine(options: {
  patterns: FailurePattern[];
  harness: LoadedHarness;
  refiner: ChatProvider;
  rejected: RejectedProposal[];
  skepticRounds: number;
  /** Globs the edits may touch (default: the config's default `harness.editable`). */
  editable?: string[];
  /** Held-out tasks, only to refuse patterns that contain them. */
  heldout?: Task[];
  /**
   * Let the Editor draft while the Skeptic reviews (a speed trick: one serial role call less
   * when the Skeptic accepts; a draft for a sent-back HMS is discarded and marked). Default off:
   * the roles then run strictly one after another, with the same outcome.
   */
  speculativeEditor?: boolean;
}): Promise<RefinementRecord> {
  const systematic = options.patterns.filter((pattern) => pattern.kind === "systematic");
  refuseHeldout({
    heldout: options.heldout,
    taskIds: systematic.flatMap((pattern) => pattern.taskIds),
    inputs: systematic.flatMap((pattern) => pattern.examples.map((example) => example.task)),
    stage: "refine",
  });
  return collaborate({
    mode: "refine",
    patterns: systematic,
    harness: options.harness,
    refiner: options.refiner,
    rejected: options.rejected,
    editable: options.editable,
    review: { rounds: options.skepticRounds },
    speculativeEditor: options.speculativeEditor ?? false,
  });
}
