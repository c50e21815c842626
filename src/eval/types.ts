import { z } from "zod";
import { traceSchema } from "../agent/types.js";

/** Score of one output against a task's expectation. */
export const verdictSchema = z.object({
  pass: z.boolean(),
  score: z.number().min(0).max(1),
  /** Why it failed, in a word a pattern can group on: `wrong-answer`, `no-answer`, `scorer-error`, … */
  reason: z.string(),
});
export type Verdict = z.infer<typeof verdictSchema>;

/** One rollout: one task, one harness, one model, one sample. Content-addressed by `key`. */
export const rolloutRecordSchema = z.object({
  key: z.string(),
  taskId: z.string(),
  category: z.string(),
  harnessHash: z.string(),
  model: z.string(),
  sampleIndex: z.number().int(),
  output: z.string(),
  answer: z.string().nullable(),
  verdict: verdictSchema,
  trace: traceSchema,
  /** Wall-clock ms of the uncached run (0 when served from cache). */
  latencyMs: z.number(),
  cached: z.boolean().default(false),
});
export type RolloutRecord = z.infer<typeof rolloutRecordSchema>;

/** Per-task outcome of an evaluation (several samples fold into one pass by majority). */
export interface TaskResult {
  taskId: string;
  category: string;
  pass: boolean;
  passes: number;
  samples: number;
  rolloutKeys: string[];
}

/** What `ecdysis eval` writes to `eval.json`. */
export interface EvalResult {
  split: string;
  harnessHash: string;
  model: string;
  /** Over the tasks with at least one rollout that reached the model (`n` of them). */
  accuracy: number;
  n: number;
  /**
   * Rollouts that never reached the model (the endpoint failed, or answered with something that
   * is not a completion): not scored, not cached, not in `tasks`; shown next to the accuracy.
   */
  infraErrors?: number;
  /** Wilson 95% interval of the accuracy. */
  interval: [number, number];
  byCategory: Record<string, { accuracy: number; n: number }>;
  tasks: TaskResult[];
  cost: {
    rollouts: number;
    cachedRollouts: number;
    llmCalls: number;
    promptTokens: number;
    completionTokens: number;
    costUsd: number;
    wallMs: number;
  };
}
