import { z } from "zod";
import type { Task } from "../config/task-schema.js";
import type { RolloutRecord } from "../eval/types.js";
import type { ChatProvider } from "../llm/types.js";
import { aggregateFailures } from "./aggregate.js";
import { classifyPatterns, type Probe, type Resample } from "./classify.js";
import { evidenceSchema, extractBatchEvidence } from "./evidence.js";
import { writeFailureNotes } from "./failure-notes.js";
import { failurePatternSchema } from "./failure-pattern.js";
import { refuseHeldout } from "./heldout-guard.js";

/** What diagnosis of one batch produces (data; the caller saves it with the run). */
export const diagnosisReportSchema = z.object({
  evidence: z.array(evidenceSchema),
  patterns: z.array(failurePatternSchema),
  stats: z
    .object({
      failures: z.number().int(),
      groups: z.number().int(),
      /** Whether the LLM merge reply was usable (false: deterministic fallback names). */
      merged: z.boolean(),
      systematic: z.number().int(),
      modelSpecific: z.number().int(),
    })
    .optional(),
});
export type DiagnosisReport = z.infer<typeof diagnosisReportSchema>;

/**
 * Diagnoses a batch jointly: evidence per failed rollout → failure notes (batched) →
 * deterministic grouping + one merge call → systematic vs model-specific classification.
 * `records` and `tasks` must be train data; pass `heldout` to have that checked.
 */
export async function diagnoseBatch(options: {
  records: RolloutRecord[];
  tasks: Task[];
  refiner: ChatProvider;
  resample?: Resample;
  probe?: Probe;
  minSupport: { tasks: number; categories: number };
  notesPerCall?: number;
  /** Re-samples per failing member (evolve.resamples); default 1. */
  resamples?: number;
  /** The harness's step budget, when known, for the step-count signal. */
  stepLimit?: number;
  /** Held-out tasks, only to refuse them if they slipped in. */
  heldout?: Task[];
}): Promise<DiagnosisReport> {
  refuseHeldout({
    heldout: options.heldout,
    taskIds: [
      ...options.records.map((record) => record.taskId),
      ...options.tasks.map((task) => task.id),
    ],
    inputs: options.tasks.map((task) => task.input),
    stage: "diagnoseBatch",
  });
  const failed = options.records.filter((record) => !record.verdict.pass);
  const raw = extractBatchEvidence({
    records: failed,
    tasks: options.tasks,
    stepLimit: options.stepLimit,
  });
  const evidence =
    raw.length === 0
      ? raw
      : await writeFailureNotes({
          evidence: raw,
          records: failed,
          tasks: options.tasks,
          refiner: options.refiner,
          notesPerCall: options.notesPerCall,
        });
  const { patterns, groups, merged } = await aggregateFailures({
    evidence,
    records: failed,
    tasks: options.tasks,
    refiner: options.refiner,
  });
  const classified = await classifyPatterns({
    patterns,
    records: failed,
    minSupport: options.minSupport,
    resample: options.resample,
    resamples: options.resamples,
    probe: options.probe,
  });
  const systematic = classified.filter((pattern) => pattern.kind === "systematic").length;
  return {
    evidence,
    patterns: classified,
    stats: {
      failures: evidence.length,
      groups: groups.length,
      merged,
      systematic,
      modelSpecific: classified.length - systematic,
    },
  };
}
