import { z } from "zod";
import { diagnosisReportSchema } from "../diagnose/diagnose-batch.js";
import { type EvalResult, rolloutRecordSchema } from "../eval/types.js";
import { refinementRecordSchema } from "../refine/refinement-record.js";

const countSchema = z.number().min(0);

/** An evaluation's summary as a journal replays it (`EvalResult`). */
const evalResultSchema: z.ZodType<EvalResult> = z.object({
  split: z.string(),
  harnessHash: z.string(),
  model: z.string(),
  accuracy: z.number().min(0).max(1),
  n: z.number().int().min(0),
  infraErrors: z.number().int().min(0).optional(),
  interval: z.tuple([z.number(), z.number()]),
  byCategory: z.record(z.string(), z.object({ accuracy: z.number(), n: z.number().int() })),
  tasks: z.array(
    z.object({
      taskId: z.string(),
      category: z.string(),
      pass: z.boolean(),
      passes: z.number().int().min(0),
      samples: z.number().int().min(0),
      rolloutKeys: z.array(z.string()),
    }),
  ),
  cost: z.object({
    rollouts: countSchema,
    cachedRollouts: countSchema,
    llmCalls: countSchema,
    promptTokens: countSchema,
    completionTokens: countSchema,
    costUsd: countSchema,
    wallMs: countSchema,
  }),
});

/** An evaluation stage's output: the result and its records (`Evaluation`). */
export const evaluationSchema = z.object({
  result: evalResultSchema,
  records: z.array(rolloutRecordSchema),
});

/**
 * The schema of each kind of journaled stage output. A replayed output that does not match its
 * stage's schema (a damaged journal, a line edited by hand) is recomputed, not handed on.
 */
export const stageSchemas = {
  evaluation: evaluationSchema,
  measurements: z.array(evaluationSchema),
  diagnosis: diagnosisReportSchema,
  refinement: refinementRecordSchema,
  /** Background stages whose work lives in the call cache. */
  nothing: z.null(),
};
