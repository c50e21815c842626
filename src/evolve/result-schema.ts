import { readFile } from "node:fs/promises";
import { z } from "zod";
import { sandboxStatusSchema } from "../agent/sandbox/sandbox-policy.js";
import { budgetSchema, strategyNameSchema } from "../config/config-schema.js";
import { diagnosisReportSchema } from "../diagnose/diagnose-batch.js";
import { InputError } from "../errors/input-error.js";
import { reachFlagSchema } from "../harness/code-reaches.js";
import { guardRejectionSchema, labelFlagSchema, plannedEditSchema } from "../harness/types.js";
import type { WireParameter } from "../llm/capabilities.js";
import { refinementRecordSchema } from "../refine/refinement-record.js";
import { spendSchema } from "./budget.js";
import { rememberedProposalSchema } from "./memory.js";
import { pairedComparisonSchema } from "./paired-test.js";
import { upgradeV2 } from "./result-schema-v2.js";
import { scoreSchema, validationStageSchema } from "./validation.js";

// result.json: the one contract between the conductor and its readers (src/report, src/bench,
// src/github). runEvolve validates what it writes against `evolveResultSchema`; readers take the
// inferred types, and `readEvolveResult` reads a file back. A change that readers would notice
// bumps `resultSchemaVersion`.

/** The version of result.json this code writes (it reads version 2 too, upgraded: result-schema-v2.ts). */
export const resultSchemaVersion = 3;

/** Why a strategy stopped. */
export const stopReasonSchema = z.union([
  z.enum([
    "no-failures",
    "no-systematic-pattern",
    /** Systematic patterns remain, but each has used its attempts (or got no proposal on this harness). */
    "attempts-exhausted",
    "max-iterations",
    "patience",
    "no-evolution",
    /** The agent gave no usable reply in an iteration's whole batch (empty, reasoning only, refused). */
    "agent-unusable",
    /** No refiner call of an iteration got a usable reply (empty, refused, not JSON, cut…). */
    "refiner-unusable",
  ]),
  z.enum(["budget:rollouts", "budget:tokens", "budget:costUsd", "budget:wallMs"]),
]);
/** Why a strategy stopped. */
export type StopReason = z.infer<typeof stopReasonSchema>;

/** A trace excerpt kept for the report (train rollouts only). */
export const traceExcerptSchema = z.object({
  key: z.string(),
  taskId: z.string(),
  category: z.string(),
  output: z.string(),
  answer: z.string().nullable(),
  verdict: z.object({ pass: z.boolean(), reason: z.string() }),
  events: z.array(z.string()),
  steps: z.array(
    z.object({
      assistant: z.string().nullable(),
      toolCalls: z.array(
        z.object({
          name: z.string(),
          arguments: z.string(),
          result: z.string(),
          error: z.boolean(),
        }),
      ),
    }),
  ),
});
/** A trace excerpt kept for the report. */
export type TraceExcerpt = z.infer<typeof traceExcerptSchema>;

/** The diagnosis an iteration saw, as the record keeps it: the patterns once, the evidence counted. */
export const diagnosisSummarySchema = z.object({
  patterns: diagnosisReportSchema.shape.patterns,
  evidenceCount: z.number().int(),
  stats: diagnosisReportSchema.shape.stats,
});
/** The diagnosis an iteration saw, as the record keeps it. */
export type DiagnosisSummary = z.infer<typeof diagnosisSummarySchema>;

/** One proposal of a strategy: what was seen, proposed, guarded, validated and decided. */
export const iterationRecordSchema = z.object({
  index: z.number().int(),
  /**
   * A follow-up of the iteration's proposal before it (the strategy's next proposal on its
   * outcome, e.g. a repair of what a rejected candidate broke): the nth of the iteration, and why.
   */
  followUp: z.object({ n: z.number().int().positive(), purpose: z.string() }).optional(),
  parentHash: z.string(),
  /** The last candidate validated (after pruning or ablation, the rebuilt one). */
  candidateHash: z.string().optional(),
  /** The batch the proposal was made on, under the parent harness. */
  batch: z.object({ taskIds: z.array(z.string()), score: scoreSchema }),
  diagnosis: diagnosisSummarySchema.optional(),
  refinement: refinementRecordSchema.optional(),
  /** The edits in force: an accepted candidate's kept edits, else those that passed the guards. */
  applied: z.array(plannedEditSchema),
  guardRejections: z.array(guardRejectionSchema),
  /** Applied edits that bring label words (a scorer's choices, common answers): allowed, for the reviewer. */
  labelFlags: z.array(labelFlagSchema).optional(),
  /** The validation's stages in the order they ran (empty: nothing was validated). */
  validation: z.array(validationStageSchema),
  verdict: z.enum(["accepted", "rejected", "stopped"]),
  reason: z.string(),
  /** Accuracy of the harness in force after this iteration, on this iteration's batch (for charts). */
  accuracyAfter: z.number(),
  /** Training wall time (ms, the budget's clock) when this iteration finished (the bench's time-to-match). */
  elapsedMs: z.number(),
  /** Example traces of the patterns (ecdysis) or of the failures shown (iterative), for the HTML report. */
  traces: z.array(traceExcerptSchema),
});
/** One proposal of a strategy. */
export type IterationRecord = z.infer<typeof iterationRecordSchema>;

/** The `cost` section: the whole run, and the training part alone (what the budget bounds). */
export const costSummarySchema = z.object({
  rollouts: z.number(),
  llmCalls: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  costUsd: z.number(),
  wallMs: z.number(),
  /** Refiner share of the tokens (and of cost when priced), 0–1. */
  refinementShare: z.number(),
  refinement: z.object({ llmCalls: z.number(), tokens: z.number(), costUsd: z.number() }),
  /**
   * A command harness: where the agent's own spend was counted — at the model gateway (exact:
   * what the endpoint answered for each rollout), from the agent's own report (when no gateway
   * saw its calls), or both — and over how many uncached rollouts each. Absent for the built-in
   * runtime (its calls are metered by the providers) and when no rollout ran.
   */
  agentUsage: z
    .object({
      source: z.enum(["gateway", "agent-reported", "mixed"]),
      gatewayRollouts: z.number(),
      selfReportedRollouts: z.number(),
    })
    .optional(),
  training: spendSchema,
});
/** The `cost` section of result.json. */
export type CostSummary = z.infer<typeof costSummarySchema>;

/**
 * One harness measured on one split: what a task cost on average (every sample's rollouts,
 * cached or not — the gate's per-task figures) and passes per category (the held-out view).
 */
export const measureSummarySchema = z.object({
  tokensPerTask: z.number(),
  costPerTask: z.number(),
  byCategory: z.record(z.string(), z.object({ passed: z.number().int(), n: z.number().int() })),
});
/** One harness measured on one split. */
export type MeasureSummary = z.infer<typeof measureSummarySchema>;

const measureSidesSchema = z.object({ seed: measureSummarySchema, final: measureSummarySchema });

/** Held-out gate of an evolve run: seed versus final harness. */
export const evolveGateSchema = z.object({
  passed: z.boolean(),
  reason: z.string(),
  comparison: pairedComparisonSchema,
  tolerance: z.number(),
  requireImprovement: z.boolean(),
  /** What the paired evidence says (absent in results written before it was kept). */
  evidence: z.enum(["better", "not-worse", "worse"]).optional(),
  /** `gate.require` when set: what had to hold to pass. */
  require: z.enum(["better", "not-worse"]).optional(),
});
/** Held-out gate of an evolve run. */
export type EvolveGate = z.infer<typeof evolveGateSchema>;

const splitScoresSchema = z.object({ train: scoreSchema, heldout: scoreSchema });

/** One capability step an endpoint forced (src/llm's `Downgrade`). */
export const downgradeSchema = z.object({
  endpoint: z.string(),
  model: z.string(),
  parameter: z.custom<WireParameter>((value) => typeof value === "string"),
  from: z.string(),
  to: z.string(),
  reason: z.string(),
  remembered: z.boolean(),
});

/** Who ran what, when: `run` in result.json. */
export const runMetadataSchema = z.object({
  /** ISO times this invocation started and finished (the run's clock). */
  startedAt: z.string(),
  finishedAt: z.string(),
  /** The Ecdysis version that wrote the result. */
  ecdysisVersion: z.string().optional(),
  /** The commit of the repository holding the config; `dirty` with uncommitted changes. */
  git: z.object({ commit: z.string(), dirty: z.boolean() }).optional(),
  /** `--limit`: at most this many tasks of each split were used. */
  limit: z.number().int().positive().optional(),
});
/** Who ran what, when. */
export type RunMetadata = z.infer<typeof runMetadataSchema>;

/** result.json of an evolve run. */
export const evolveResultSchema = z.object({
  schemaVersion: z.literal(resultSchemaVersion),
  strategy: strategyNameSchema,
  seed: z.number().int(),
  configHash: z.string(),
  model: z.string(),
  stoppedBy: stopReasonSchema,
  baseline: splitScoresSchema,
  final: splitScoresSchema,
  iterations: z.array(iterationRecordSchema),
  acceptedEdits: z.array(plannedEditSchema),
  /** Every proposal the loop rejected, as the later refinements were shown it. */
  rejectedProposals: z.array(rememberedProposalSchema),
  cost: costSummarySchema,
  harness: z.object({
    seedHash: z.string(),
    finalHash: z.string(),
    changedFiles: z.array(
      z.object({ path: z.string(), added: z.number().int(), removed: z.number().int() }),
    ),
    patch: z.string(),
  }),
  gate: evolveGateSchema,
  /**
   * The configured limits and what they covered: `training` (the seed/final measurement, at
   * most `measurementRollouts`, ran outside them) or the whole `run`. Absent in results written
   * before it was recorded.
   */
  budget: budgetSchema.extend({ measurementRollouts: z.number().int().min(0) }).optional(),
  run: runMetadataSchema,
  /** Per-task spend and per-category passes of the seed and final harnesses (absent before it was kept). */
  measures: z.object({ train: measureSidesSchema, heldout: measureSidesSchema }).optional(),
  /** What the endpoints could not do: the capability steps taken; present only when there were some. */
  endpoints: z.object({ downgrades: z.array(downgradeSchema) }).optional(),
  /** A command harness: whether its code ran in the OS sandbox, and the warning when it did not. */
  sandbox: sandboxStatusSchema.optional(),
  /** What the code edits of the final harness newly reach for (environment, files, network, processes). */
  reaches: z.array(reachFlagSchema).optional(),
});
/** result.json of an evolve run. */
export type EvolveResult = z.infer<typeof evolveResultSchema>;

/**
 * Reads and validates a result.json; a version 2 file is upgraded first (result-schema-v2.ts).
 * Another schema version, or a file that does not match, is an InputError naming the file and field.
 */
export async function readEvolveResult(file: string): Promise<EvolveResult> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new InputError(file, `cannot read an evolve result (${(error as Error).message})`);
  }
  return parseEvolveResult(file, value);
}

/** Validates a parsed result.json (see `readEvolveResult`). */
export function parseEvolveResult(file: string, value: unknown): EvolveResult {
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== resultSchemaVersion && version !== 2)
    throw new InputError(
      file,
      `is result.json schema version ${JSON.stringify(version ?? "1 (no schemaVersion)")}; this Ecdysis reads versions 2 and ${resultSchemaVersion} — re-run evolve to write it`,
      { field: "schemaVersion" },
    );
  const parsed = evolveResultSchema.safeParse(version === 2 ? upgradeV2(value) : value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InputError(file, `is not an evolve result.json: ${issue.message}`, {
    field: issue.path.map(String).join(".") || undefined,
  });
}

export type { Score } from "./validation.js";
