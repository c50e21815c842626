import { z } from "zod";
import type { Task } from "../config/task-schema.js";
import type { RolloutRecord } from "../eval/types.js";
import type { ChatProvider } from "../llm/types.js";
import { silentAgentReason } from "./agent-replies.js";
import { aggregateFailures } from "./aggregate.js";
import { canonicaliseCauses } from "./canonical-causes.js";
import { classifyPatterns, type Probe, type Resample } from "./classify.js";
import { type Evidence, evidenceSchema, extractBatchEvidence } from "./evidence.js";
import { writeFailureNotes } from "./failure-notes.js";
import { type FailurePattern, failurePatternSchema } from "./failure-pattern.js";
import { refuseHeldout } from "./heldout-guard.js";
import { ReplyTally, replyTallySchema } from "./reply-tally.js";

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
      /** The kind of every refiner reply, per purpose (`failure-notes`, `pattern-merge`). */
      replies: replyTallySchema.optional(),
      /** Why the batch was not diagnosed: the agent gave no usable reply (counts and the fix). */
      agentSilent: z.string().optional(),
    })
    .optional(),
});
export type DiagnosisReport = z.infer<typeof diagnosisReportSchema>;

/**
 * Failing tasks re-sampled per failure signature (signal key) at most: enough to tell a
 * reproducible failure from a flaky one, without re-running every member of a large group.
 */
export const resampledPerSignal = 4;
/**
 * Of those, the first wave (started at once): two failing again out of two settle a pattern of up
 * to four re-sampled tasks as reproducible (`settled` in classify.ts), so the rest are re-run only
 * for the patterns the first wave leaves undecided.
 */
export const firstWavePerSignal = 2;

/**
 * The failing records to re-sample: one per distinct task, at most `resampledPerSignal` tasks per
 * signal key, in batch order (a pattern's reproducibility is then judged on those of its tasks),
 * split into the first wave (`firstWavePerSignal` per signal key) and the rest.
 */
function resampleSelection(
  evidence: Evidence[],
  records: RolloutRecord[],
): { first: RolloutRecord[]; more: RolloutRecord[] } {
  const byKey = new Map(records.map((record) => [record.key, record]));
  const tasks = new Set<string>();
  const perSignal = new Map<string, number>();
  const first: RolloutRecord[] = [];
  const more: RolloutRecord[] = [];
  for (const item of evidence) {
    const record = byKey.get(item.rolloutKey);
    const count = perSignal.get(item.signalKey) ?? 0;
    // A task the model does not know is not re-sampled: its pattern is never systematic.
    if (!record || item.unknownTask || tasks.has(record.taskId) || count >= resampledPerSignal)
      continue;
    tasks.add(record.taskId);
    perSignal.set(item.signalKey, count + 1);
    (count < firstWavePerSignal ? first : more).push(record);
  }
  return { first, more };
}

/**
 * Starts re-sampling the first wave of the selected failing tasks at once, so the rollouts run
 * while the notes and merge calls (which decide the patterns) are in flight; classification then
 * reads the re-runs of its patterns' tasks from the result, and asks for the rest of the selection
 * (`resampleMore`) only where the first wave left a pattern undecided. Costs re-samples of tasks
 * that end in unsupported patterns. Skipped (the plain callback is used) when too few tasks fail
 * to form a supported pattern. `settled` resolves once the early re-runs are over, whatever their
 * outcome, so no work outlives the diagnosis.
 */
function startResample(options: {
  selection: { first: RolloutRecord[]; more: RolloutRecord[] };
  resample?: Resample;
  resamples: number;
  minTasks: number;
}): { resample?: Resample; resampleMore?: Resample; settled: Promise<unknown> } {
  const { resample, resamples } = options;
  const { first, more } = options.selection;
  if (!resample || resamples <= 0 || first.length + more.length < options.minTasks)
    return { resample, settled: Promise.resolve() };
  const early = resample(first, resamples);
  // Awaited by classification; a failure surfaces there, not as an unhandled rejection.
  const settled = early.catch(() => undefined);
  return {
    settled,
    resample: async (records) => {
      const ids = new Set(records.map((record) => record.taskId));
      return (await early).filter((run) => ids.has(run.taskId));
    },
    resampleMore: async (records, k) => {
      const asked = new Set(records.map((record) => record.taskId));
      const wanted = more.filter((record) => asked.has(record.taskId));
      return wanted.length > 0 ? resample(wanted, k) : [];
    },
  };
}

/** Options of `diagnoseBatch`. */
export interface DiagnoseBatchOptions {
  records: RolloutRecord[];
  tasks: Task[];
  refiner: ChatProvider;
  resample?: Resample;
  probe?: Probe;
  minSupport: { tasks: number; categories: number };
  notesPerCall?: number;
  /** Failures noted per failure signature at most (the rest inherit; `writeFailureNotes`). */
  notesPerSignature?: number;
  /** Re-samples per failing member (evolve.resamples); default 1. */
  resamples?: number;
  /**
   * The agent model's sampling temperature. At 0 the model is deterministic: a re-sample would
   * repeat the run, so none is made (the patterns say so) and no rollout is spent on it.
   */
  agentTemperature?: number;
  /** The harness's step budget, when known, for the step-count signal. */
  stepLimit?: number;
  /** Held-out tasks, only to refuse them if they slipped in. */
  heldout?: Task[];
  /** Every pattern as the support test left it, before re-sampling (see `classifyPatterns`). */
  onSupported?: (patterns: FailurePattern[]) => void;
}

/**
 * Diagnoses a batch jointly: evidence per failed rollout → failure notes (batched) →
 * deterministic grouping + one merge call → systematic vs model-specific classification.
 * `records` and `tasks` must be train data; pass `heldout` to have that checked.
 */
export async function diagnoseBatch(options: DiagnoseBatchOptions): Promise<DiagnosisReport> {
  refuseHeldoutInBatch(options);
  const failed = options.records.filter((record) => !record.verdict.pass);
  const silent = silentAgentReason(options.records);
  if (silent) return undiagnosed(failed, options.tasks, silent);
  const raw = extractBatchEvidence({
    records: failed,
    tasks: options.tasks,
    stepLimit: options.stepLimit,
  });
  const deterministic = options.agentTemperature === 0;
  const resample = deterministic ? undefined : options.resample;
  const early = startResample({
    selection: resampleSelection(raw, failed),
    resample,
    resamples: options.resamples ?? 1,
    minTasks: options.minSupport.tasks,
  });
  const replies = new ReplyTally();
  try {
    const evidence = await notedEvidence({ options, raw, failed, replies });
    const { patterns, groups, merged } = await aggregateFailures({
      evidence,
      records: failed,
      tasks: options.tasks,
      refiner: options.refiner,
      minTasks: options.minSupport.tasks,
      onReplies: (kinds) => replies.add("pattern-merge", kinds),
    });
    const classified = await classifyPatterns({
      patterns,
      records: failed,
      minSupport: options.minSupport,
      unknownTaskKeys: new Set(
        evidence.filter((item) => item.unknownTask).map((item) => item.rolloutKey),
      ),
      resample: early.resample,
      resampleMore: early.resampleMore,
      resamples: options.resamples,
      ...(deterministic && options.resample
        ? { untested: "the agent model runs at temperature 0: a re-sample would repeat the run" }
        : {}),
      probe: options.probe,
      onSupported: options.onSupported,
    });
    return diagnosisReport({
      evidence,
      patterns: classified,
      groups: groups.length,
      merged,
      replies,
    });
  } finally {
    await early.settled;
  }
}

/** Refuses the batch when a held-out task slipped into its records or tasks. */
function refuseHeldoutInBatch(options: DiagnoseBatchOptions): void {
  refuseHeldout({
    heldout: options.heldout,
    taskIds: [
      ...options.records.map((record) => record.taskId),
      ...options.tasks.map((task) => task.id),
    ],
    inputs: options.tasks.map((task) => task.input),
    stage: "diagnoseBatch",
  });
}

/** The evidence with the refiner's failure notes, causes canonicalised (none to note: as is). */
async function notedEvidence(input: {
  options: DiagnoseBatchOptions;
  raw: Evidence[];
  failed: RolloutRecord[];
  replies: ReplyTally;
}): Promise<Evidence[]> {
  const { options, raw, replies } = input;
  if (raw.length === 0) return raw;
  return canonicaliseCauses(
    await writeFailureNotes({
      evidence: raw,
      records: input.failed,
      tasks: options.tasks,
      refiner: options.refiner,
      notesPerCall: options.notesPerCall,
      notesPerSignature: options.notesPerSignature,
      onReplies: (kinds) => replies.add("failure-notes", kinds),
    }),
  );
}

/** The report of a diagnosed batch: evidence, classified patterns and the stage's counts. */
function diagnosisReport(input: {
  evidence: Evidence[];
  patterns: FailurePattern[];
  groups: number;
  merged: boolean;
  replies: ReplyTally;
}): DiagnosisReport {
  const { evidence, patterns, replies } = input;
  const systematic = patterns.filter((pattern) => pattern.kind === "systematic").length;
  return {
    evidence,
    patterns,
    stats: {
      failures: evidence.length,
      groups: input.groups,
      merged: input.merged,
      systematic,
      modelSpecific: patterns.length - systematic,
      ...(replies.isEmpty() ? {} : { replies: replies.counts() }),
    },
  };
}

/**
 * The report of a batch whose agent never answered: the evidence, no pattern, and why. No refiner
 * call is made — there is nothing a harness change could be learned from.
 */
function undiagnosed(failed: RolloutRecord[], tasks: Task[], reason: string): DiagnosisReport {
  const evidence = extractBatchEvidence({ records: failed, tasks });
  return {
    evidence,
    patterns: [],
    stats: {
      failures: evidence.length,
      groups: 0,
      merged: false,
      systematic: 0,
      modelSpecific: 0,
      agentSilent: reason,
    },
  };
}
