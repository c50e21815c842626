import type { ModelConfig } from "../config/config-schema.js";
import { saysUnknownTask } from "../diagnose/evidence.js";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import type { EvolveResult } from "../evolve/result-schema.js";
import { loadWorld } from "../sim/index.js";

/** How many failing tasks there were, and how many of them the model said it does not know. */
export interface UnknownTaskCount {
  failing: number;
  unknown: number;
}

/** Failing tasks of an evaluation whose every failing run says the model does not know the task. */
export function countUnknownTasks(result: EvalResult, records: RolloutRecord[]): UnknownTaskCount {
  const failing = result.tasks.filter((task) => !task.pass).map((task) => task.taskId);
  const failedRuns = new Map<string, RolloutRecord[]>();
  for (const record of records) {
    if (record.verdict.pass) continue;
    failedRuns.set(record.taskId, [...(failedRuns.get(record.taskId) ?? []), record]);
  }
  const unknown = failing.filter((taskId) => {
    const runs = failedRuns.get(taskId) ?? [];
    return runs.length > 0 && runs.every((record) => saysUnknownTask(record.output));
  });
  return { failing: failing.length, unknown: unknown.length };
}

/**
 * The same count from an evolve run's first diagnosis: the tasks of its `unknown-task`
 * patterns against the failing tasks of that batch.
 */
export function countUnknownInEvolve(result: EvolveResult): UnknownTaskCount {
  const first = result.iterations.find((iteration) => iteration.diagnosis);
  if (!first?.diagnosis) return { failing: 0, unknown: 0 };
  const { score } = first.batch;
  const failing = Math.round(score.n * (1 - score.accuracy));
  const unknown = first.diagnosis.patterns
    .filter((pattern) => pattern.reasons.some((reason) => reason.code === "unknown-task"))
    .reduce((sum, pattern) => sum + pattern.support.tasks, 0);
  return { failing, unknown: Math.min(unknown, failing) };
}

/**
 * A warning when most failing tasks got "I don't know how to do this task": on the sim, the
 * tasks are outside its world (it cannot solve a user's own tasks); on a real model, no harness
 * change teaches a model a task it cannot do. `undefined` when it is not most of them.
 */
export async function unknownTaskWarning(
  model: ModelConfig,
  count: UnknownTaskCount,
): Promise<string | undefined> {
  if (count.failing === 0 || count.unknown * 2 <= count.failing) return undefined;
  const share = `${count.unknown} of ${count.failing} failing tasks`;
  if (model.provider !== "sim")
    return `warning: the model said it does not know how to do ${share}: no harness change teaches a model a task it cannot do, so these failures are not diagnosed as harness patterns.\n`;
  const world = await loadWorld(model.world ?? "").catch(() => undefined);
  const name = world?.name ?? model.world ?? "";
  const families = [...new Set(world?.families.map((family) => family.kind) ?? [])];
  const knows = families.length > 0 ? ` (it knows ${families.join(", ")} tasks)` : "";
  return `warning: ${share} got "I don't know how to do this task" from the simulated model: these tasks are outside the simulated world '${name}'${knows}. The sim cannot solve your own tasks: to evaluate them, point 'model' in ecdysis.yml at a real endpoint (provider: openai, baseUrl, apiKeyEnv).\n`;
}
