import { majorityPass, wilsonInterval } from "./statistics.js";
import type { EvalResult, RolloutRecord, TaskResult } from "./types.js";

/** Cost block of an EvalResult. */
export type EvalCost = EvalResult["cost"];

/** A zero cost block. */
export function emptyCost(): EvalCost {
  return {
    rollouts: 0,
    cachedRollouts: 0,
    llmCalls: 0,
    promptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    wallMs: 0,
  };
}

/** What folding needs of a rollout record. */
export type FoldedRollout = Pick<RolloutRecord, "key" | "taskId" | "category" | "sampleIndex"> & {
  verdict: { pass: boolean };
};

/**
 * Folds rollout records into per-task results (majority of samples), ordered by task id so the
 * result does not depend on the order in which (or the processes in which) rollouts ran.
 */
export function foldTaskResults(records: readonly FoldedRollout[]): TaskResult[] {
  const byTask = new Map<string, FoldedRollout[]>();
  for (const record of records) {
    const list = byTask.get(record.taskId) ?? [];
    list.push(record);
    byTask.set(record.taskId, list);
  }
  return [...byTask.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([taskId, list]) => {
      const ordered = [...list].sort((a, b) => a.sampleIndex - b.sampleIndex);
      const passes = ordered.filter((record) => record.verdict.pass).length;
      return {
        taskId,
        category: ordered[0].category,
        pass: majorityPass(passes, ordered.length),
        passes,
        samples: ordered.length,
        rolloutKeys: ordered.map((record) => record.key),
      };
    });
}

/** Accuracy, Wilson interval and per-category accuracy of task results. */
export function buildEvalResult(options: {
  split: string;
  harnessHash: string;
  model: string;
  tasks: TaskResult[];
  cost: EvalCost;
  /** Rollouts that did not reach the model (default 0). */
  infraErrors?: number;
}): EvalResult {
  const { tasks } = options;
  const passed = tasks.filter((task) => task.pass).length;
  const categories = new Map<string, { passed: number; n: number }>();
  for (const task of tasks) {
    const entry = categories.get(task.category) ?? { passed: 0, n: 0 };
    entry.n += 1;
    if (task.pass) entry.passed += 1;
    categories.set(task.category, entry);
  }
  const byCategory = Object.fromEntries(
    [...categories.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([category, entry]) => [category, { accuracy: entry.passed / entry.n, n: entry.n }]),
  );
  return {
    split: options.split,
    harnessHash: options.harnessHash,
    model: options.model,
    accuracy: tasks.length ? passed / tasks.length : 0,
    n: tasks.length,
    infraErrors: options.infraErrors ?? 0,
    interval: wilsonInterval(passed, tasks.length),
    byCategory,
    tasks,
    cost: options.cost,
  };
}

/** Adds cost blocks; wall time is the longest (shards run side by side). */
export function addCosts(costs: readonly EvalCost[]): EvalCost {
  return costs.reduce(
    (total, cost) => ({
      rollouts: total.rollouts + cost.rollouts,
      cachedRollouts: total.cachedRollouts + cost.cachedRollouts,
      llmCalls: total.llmCalls + cost.llmCalls,
      promptTokens: total.promptTokens + cost.promptTokens,
      completionTokens: total.completionTokens + cost.completionTokens,
      costUsd: total.costUsd + cost.costUsd,
      wallMs: Math.max(total.wallMs, cost.wallMs),
    }),
    emptyCost(),
  );
}
