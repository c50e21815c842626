import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { Task } from "../config/task-schema.js";
import { InputError } from "../errors/input-error.js";
import type { RolloutCache } from "../eval/rollout-cache.js";
import { type RolloutRecord, rolloutRecordSchema } from "../eval/types.js";
import type { Measurement } from "./measurement.js";
import type { IterationRecord, MeasureSummary } from "./result-schema.js";

// records.json: what the drill-down report needs beyond result.json — the failing train
// rollouts in full with their tasks, and the per-task outcomes of the seed and final harnesses.
// Held-out tasks appear only as outcomes (id, category, pass, spend): no input, expected answer,
// output or trace of theirs is kept here, as none reaches a refiner.

/** The file beside result.json. */
export const runRecordsFile = "records.json";

/** The version of records.json this code writes and reads. */
const runRecordsVersion = 1;

/** One task's outcome under one harness, and what its rollouts cost (all samples, cached or not). */
export const taskOutcomeSchema = z.object({
  taskId: z.string(),
  category: z.string(),
  pass: z.boolean(),
  passes: z.number().int(),
  samples: z.number().int(),
  tokens: z.number(),
  costUsd: z.number(),
  /** Train only: the rollouts of the task (the failing ones are in `rollouts`). */
  rolloutKeys: z.array(z.string()).optional(),
});
/** One task's outcome under one harness. */
export type TaskOutcome = z.infer<typeof taskOutcomeSchema>;

const measureSchema = z.object({ harnessHash: z.string(), tasks: z.array(taskOutcomeSchema) });
const sidesSchema = z.object({ seed: measureSchema, final: measureSchema });

/** records.json of an evolve run. */
export const runRecordsSchema = z.object({
  schemaVersion: z.literal(runRecordsVersion),
  /** The train tasks of the kept rollouts: what the agent was asked and what was expected. */
  tasks: z.array(
    z.object({ id: z.string(), category: z.string(), input: z.string(), expected: z.unknown() }),
  ),
  /** Every failing train rollout the run names: pattern members, shown failures, seed and final failures. */
  rollouts: z.array(rolloutRecordSchema),
  measures: z.object({ train: sidesSchema, heldout: sidesSchema }),
  /** Keys of failing rollouts the iterations name that the rollout cache no longer held. */
  missing: z.array(z.string()),
});
/** records.json of an evolve run. */
export type RunRecords = z.infer<typeof runRecordsSchema>;

/** Per-task outcomes of a measurement; `keys` keeps the rollout keys (train). */
function outcomes(measurement: Measurement, keys: boolean): TaskOutcome[] {
  return measurement.result.tasks.map((task, index) => ({
    taskId: task.taskId,
    category: task.category,
    pass: task.pass,
    passes: task.passes,
    samples: task.samples,
    tokens: measurement.tokens[index] ?? 0,
    costUsd: measurement.costUsd[index] ?? 0,
    ...(keys ? { rolloutKeys: task.rolloutKeys } : {}),
  }));
}

/** What a task of an evaluation cost on average, and its passes per category (result.json `measures`). */
export function measureSummary(measurement: Measurement): MeasureSummary {
  const tasks = outcomes(measurement, false);
  const n = Math.max(1, measurement.result.n);
  const byCategory: MeasureSummary["byCategory"] = {};
  for (const task of tasks) {
    const entry = byCategory[task.category] ?? { passed: 0, n: 0 };
    entry.n += 1;
    if (task.pass) entry.passed += 1;
    byCategory[task.category] = entry;
  }
  const sum = (pick: (task: TaskOutcome) => number) =>
    tasks.reduce((total, task) => total + pick(task), 0);
  return {
    tokensPerTask: sum((task) => task.tokens) / n,
    costPerTask: sum((task) => task.costUsd) / n,
    byCategory: Object.fromEntries(
      Object.entries(byCategory).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
  };
}

/** Rollout keys of the failures an iteration (a repair round is one of its own) diagnosed or showed. */
function namedKeys(iteration: IterationRecord): string[] {
  return [
    ...(iteration.diagnosis?.patterns ?? []).flatMap((pattern) => pattern.memberKeys),
    ...iteration.traces.map((trace) => trace.key),
  ];
}

/**
 * records.json from a finished run: the seed and final measurements (`measured`: seed train, seed
 * held-out, final train, final held-out) and the failing rollouts they and the iterations name,
 * read back from the rollout cache (a key it no longer has is listed in `missing`).
 */
export async function buildRunRecords(options: {
  train: readonly Task[];
  iterations: readonly IterationRecord[];
  measured: readonly Measurement[];
  cache: RolloutCache;
}): Promise<RunRecords> {
  const [seedTrain, seedHeldout, finalTrain, finalHeldout] = options.measured;
  const rollouts = new Map<string, RolloutRecord>();
  const missing: string[] = [];
  // The measurements' failing rollouts, with their verdicts as scored now.
  const measuredFailures = new Map(
    [...seedTrain.failing, ...finalTrain.failing].map(({ key, verdict }) => [key, verdict]),
  );
  const wanted = [
    ...new Set([...measuredFailures.keys(), ...options.iterations.flatMap(namedKeys)]),
  ];
  for (const key of wanted) {
    const record = await options.cache.get(key);
    const verdict = measuredFailures.get(key) ?? record?.verdict;
    if (!record) missing.push(key);
    else if (verdict && !verdict.pass) rollouts.set(key, { ...record, verdict, cached: false });
  }
  const used = new Set([...rollouts.values()].map((record) => record.taskId));
  return {
    schemaVersion: runRecordsVersion,
    tasks: options.train
      .filter((task) => used.has(task.id))
      .map((task) => ({
        id: task.id,
        category: task.category,
        input: task.input,
        expected: task.expected,
      })),
    rollouts: [...rollouts.values()],
    measures: {
      train: {
        seed: { harnessHash: seedTrain.result.harnessHash, tasks: outcomes(seedTrain, true) },
        final: { harnessHash: finalTrain.result.harnessHash, tasks: outcomes(finalTrain, true) },
      },
      heldout: {
        seed: { harnessHash: seedHeldout.result.harnessHash, tasks: outcomes(seedHeldout, false) },
        final: {
          harnessHash: finalHeldout.result.harnessHash,
          tasks: outcomes(finalHeldout, false),
        },
      },
    },
    missing: missing.sort(),
  };
}

/** Reads records.json from a run folder; undefined when the run kept none (an older Ecdysis). */
export async function readRunRecords(outDir: string): Promise<RunRecords | undefined> {
  const file = path.join(outDir, runRecordsFile);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(file, `is not JSON (${(error as Error).message}) — re-run evolve`);
  }
  const parsed = runRecordsSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InputError(file, `is not a run's records.json: ${issue.message} — re-run evolve`, {
    field: issue.path.map(String).join(".") || undefined,
  });
}
