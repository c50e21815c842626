import { z } from "zod";
import { type LoadedHarness, plannedEditSchema } from "../harness/types.js";
import { pairedComparisonSchema, sampleComparisonSchema } from "./paired-test.js";
import type { Evaluation } from "./run-context.js";

/** Accuracy of one harness on one set of tasks. */
export const scoreSchema = z.object({
  accuracy: z.number(),
  n: z.number().int(),
  interval: z.tuple([z.number(), z.number()]),
  /** Rollouts that did not reach the model (not in `n`, never scored). */
  infraErrors: z.number().int().optional(),
});
/** Accuracy of one harness on one set of tasks. */
export type Score = z.infer<typeof scoreSchema>;

/** What an acceptance criterion decided, and why (`acceptance.ts` writes every reason). */
export const decisionSchema = z.object({ accepted: z.boolean(), reason: z.string() });
/** What an acceptance criterion decided, and why. */
export type Decision = z.infer<typeof decisionSchema>;

/**
 * What a validation stage means for the verdict on its proposal — the one thing `decide`
 * (acceptance.ts) reads, so a new step needs no change there:
 *
 * - `screen` — a gate before the verdict (cheap validation, a minibatch): passed, validation
 *   goes on; failed, it ends and its reason is the verdict's.
 * - `prune` — takes changes out of the candidate (they fixed none of their targets); decides
 *   like a screen, and the changes it drops count as attempts at their patterns.
 * - `verdict` — a test that can accept the candidate it names (the full batch, the re-drawn
 *   flips): the last one decides unless a later step retries.
 * - `retry` — a rejected proposal rebuilt from part of it (ablation), validated by the stages
 *   after it; when they reject it too, both rejections are named, joined by this stage's reason.
 * - `note` — recorded, decides nothing (pruning put back because the candidate did worse
 *   without the changes).
 */
export const stageRoles = ["screen", "prune", "verdict", "retry", "note"] as const;
/** What a validation stage means for the verdict (`stageRoles`). */
export type StageRole = (typeof stageRoles)[number];

/**
 * One change of a proposal judged on its own (pruned by attribution, tried alone by ablation,
 * credited per edit): its edits, the patterns it addressed, whether it stays, and why.
 */
export const changeOutcomeSchema = z.object({
  edits: z.array(plannedEditSchema),
  /** Names of the patterns it addressed (ids change across batches). */
  patterns: z.array(z.string()),
  /** Their ids, when the step knew them. */
  patternIds: z.array(z.string()).optional(),
  /** Whether it stays in the candidate. */
  kept: z.boolean(),
  reason: z.string(),
  /** Failing members of its patterns in the batch. */
  targets: z.number().int().optional(),
  /** Tasks it fixed and broke where it was run alone. */
  fixed: z.number().int().optional(),
  broken: z.number().int().optional(),
  /** Not run: why (alone, its edited files would not parse). */
  unrun: z.string().optional(),
});
/** One change of a proposal judged on its own. */
export type ChangeOutcome = z.infer<typeof changeOutcomeSchema>;

/**
 * One step of a validation, as the iteration record keeps it. Every step has the same shape —
 * its name in the strategy's words, its `role`, the candidate it ran, what it measured and
 * its decision — so the loop, `decide`, the reports and the bench read any step without knowing
 * it, and a new step is one new function in its strategy.
 */
export const validationStageSchema = z.object({
  /** The step, in the strategy's words (`cheap validation`, `full batch`, `minibatch`, …). */
  step: z.string(),
  role: z.enum(stageRoles),
  /** The candidate it ran (a rebuilt one after pruning or ablation). */
  candidateHash: z.string().optional(),
  /** Per-task pass/fail of the candidate against the parent on the tasks it ran. */
  comparison: pairedComparisonSchema.optional(),
  /** The same tasks re-drawn, paired draw by draw. */
  draws: sampleComparisonSchema.optional(),
  /** The candidate's accuracy on the tasks it ran (the verdict's accuracy when it accepts). */
  score: scoreSchema.optional(),
  /** Changes judged one by one. */
  changes: z.array(changeOutcomeSchema).optional(),
  /** Other figures the step measured, by name (a pruning round; a test's power). */
  figures: z.record(z.string(), z.number()).optional(),
  decision: decisionSchema,
});
/** One step of a validation. */
export type ValidationStage = z.infer<typeof validationStageSchema>;

/** A harness a validation built, and the edits in force in it. */
export interface Candidate {
  harness: LoadedHarness;
  kept: z.infer<typeof plannedEditSchema>[];
  /** Its evaluation on the whole batch, when a strategy carries it on (the iterative baseline). */
  run?: Evaluation;
}

/**
 * What validating one proposal found: its stages in the order they ran (kept in the iteration
 * record as they are), and the candidates they name by hash (in memory only).
 */
export interface ValidationResult {
  stages: ValidationStage[];
  candidates: ReadonlyMap<string, Candidate>;
}

/** Whether a stage can decide the verdict (a screen, a pruning or a verdict; not a retry or a note). */
export function decides(stage: ValidationStage): boolean {
  return stage.role === "screen" || stage.role === "prune" || stage.role === "verdict";
}

/** The changes the pruning stages took out of the proposal (not those put back). */
export function prunedChanges(stages: readonly ValidationStage[]): ChangeOutcome[] {
  return stages.flatMap((stage) =>
    stage.role === "prune" ? (stage.changes ?? []).filter((change) => !change.kept) : [],
  );
}
