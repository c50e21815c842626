import { z } from "zod";
import { diagnosisReportSchema } from "../diagnose/diagnose-batch.js";
import {
  guardRejectionSchema,
  type LoadedHarness,
  labelFlagSchema,
  plannedEditSchema,
} from "../harness/types.js";
import { refinementRecordSchema } from "../refine/refinement-record.js";
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

/** A change of a proposal dropped before the full batch because it fixed none of its targets. */
export const prunedChangeSchema = z.object({
  edits: z.array(plannedEditSchema),
  /** Ids of the patterns it addressed. */
  patterns: z.array(z.string()),
  patternNames: z.array(z.string()),
  /** Failing members of those patterns in the batch. */
  targets: z.number().int(),
  reason: z.string(),
});
/** A change dropped by per-change attribution. */
export type PrunedChange = z.infer<typeof prunedChangeSchema>;

/** One change of a rejected bundle tried alone on the parent (kept: it fixes more than it breaks alone). */
export const ablatedChangeSchema = z.object({
  edits: z.array(plannedEditSchema),
  /** Names of the patterns it addressed. */
  patterns: z.array(z.string()),
  fixed: z.number().int(),
  broken: z.number().int(),
  kept: z.boolean(),
  /** Not run: alone on the parent its edited files would not parse (why). */
  unparsable: z.string().optional(),
});

/** The diagnosis an iteration saw, as the record keeps it: the patterns once, the evidence counted. */
export const diagnosisSummarySchema = z.object({
  patterns: diagnosisReportSchema.shape.patterns,
  evidenceCount: z.number().int(),
  stats: diagnosisReportSchema.shape.stats,
});
/** The diagnosis an iteration saw, as the record keeps it. */
export type DiagnosisSummary = z.infer<typeof diagnosisSummarySchema>;

const cheapStage = z.object({
  stage: z.literal("cheap"),
  candidateHash: z.string(),
  /** The failing members of the addressed patterns plus a stratified sample of passing tasks. */
  comparison: pairedComparisonSchema,
  decision: decisionSchema,
});
const prunedStage = z.object({
  stage: z.literal("pruned"),
  round: z.number().int(),
  changes: z.array(prunedChangeSchema),
  /** The candidate without them, when one was built and run on the cheap subset. */
  candidateHash: z.string().optional(),
  comparison: pairedComparisonSchema.optional(),
  /** Kept after all: the candidate was promising with them and is not without them. */
  undone: z.boolean(),
  decision: decisionSchema,
});
const fullStage = z.object({
  stage: z.literal("full"),
  candidateHash: z.string(),
  comparison: pairedComparisonSchema,
  score: scoreSchema,
  decision: decisionSchema,
  /** Why the flips were not re-drawn though the per-task test alone could not pass (a deterministic agent). */
  notRedrawn: z.string().optional(),
});
const confirmStage = z.object({
  stage: z.literal("confirm"),
  candidateHash: z.string(),
  /** The flipped tasks of the full batch re-drawn under both harnesses, paired draw by draw. */
  comparison: sampleComparisonSchema,
  decision: decisionSchema,
});
const ablatedStage = z.object({
  stage: z.literal("ablated"),
  changes: z.array(ablatedChangeSchema),
});

/** One step of a validation; `repaired` holds the repair round's own proposal and evidence. */
export type EvidenceStage =
  | z.infer<typeof cheapStage>
  | z.infer<typeof prunedStage>
  | z.infer<typeof fullStage>
  | z.infer<typeof confirmStage>
  | z.infer<typeof ablatedStage>
  | RepairedStage;

/** A rejected candidate's repair round: its regressions diagnosed and refined on top, then validated. */
export interface RepairedStage {
  stage: "repaired";
  diagnosis?: DiagnosisSummary;
  refinement?: z.infer<typeof refinementRecordSchema>;
  guardRejections: z.infer<typeof guardRejectionSchema>[];
  /** The repair's applied edits that bring label words. */
  labelFlags?: z.infer<typeof labelFlagSchema>[];
  /** The original edits plus the repair's. */
  applied: z.infer<typeof plannedEditSchema>[];
  candidateHash?: string;
  evidence: EvidenceStage[];
  decision: Decision;
}

const repairedStage: z.ZodType<RepairedStage> = z.object({
  stage: z.literal("repaired"),
  diagnosis: diagnosisSummarySchema.optional(),
  refinement: refinementRecordSchema.optional(),
  guardRejections: z.array(guardRejectionSchema),
  labelFlags: z.array(labelFlagSchema).optional(),
  applied: z.array(plannedEditSchema),
  candidateHash: z.string().optional(),
  evidence: z.array(z.lazy(() => evidenceStageSchema)),
  decision: decisionSchema,
});

/** One step of a validation: cheap, pruned, full, confirm, ablated or repaired. */
export const evidenceStageSchema: z.ZodType<EvidenceStage> = z.union([
  cheapStage,
  prunedStage,
  fullStage,
  confirmStage,
  ablatedStage,
  repairedStage,
]);

/** The stage of one kind. */
export type StageOf<K extends EvidenceStage["stage"]> = Extract<EvidenceStage, { stage: K }>;

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
export interface Evidence {
  stages: EvidenceStage[];
  candidates: ReadonlyMap<string, Candidate>;
}

/** The first stage of a kind, if any. */
export function firstStage<K extends EvidenceStage["stage"]>(
  stages: readonly EvidenceStage[],
  kind: K,
): StageOf<K> | undefined {
  return stages.find((stage): stage is StageOf<K> => stage.stage === kind);
}

/** The last stage of a kind, if any. */
export function lastStage<K extends EvidenceStage["stage"]>(
  stages: readonly EvidenceStage[],
  kind: K,
): StageOf<K> | undefined {
  return stages.findLast((stage): stage is StageOf<K> => stage.stage === kind);
}

/** The changes pruning took out of the proposal (not those it put back); undefined when none. */
export function prunedChangesOf(stages: readonly EvidenceStage[]): PrunedChange[] | undefined {
  const pruned = stages.flatMap((stage) =>
    stage.stage === "pruned" && !stage.undone ? stage.changes : [],
  );
  return pruned.length > 0 ? pruned : undefined;
}

/** The changes pruning would have taken out but put back (their pattern names); undefined when none. */
export function undonePruningOf(stages: readonly EvidenceStage[]): string[] | undefined {
  const undone = stages.find((stage) => stage.stage === "pruned" && stage.undone);
  return undone?.stage === "pruned"
    ? undone.changes.map((change) => change.patternNames.join(", "))
    : undefined;
}
