import { agentErrorDetail, agentErrorEvent } from "../eval/agent-errors.js";
import type { RolloutRecord } from "../eval/types.js";
import type { RunRecords } from "../evolve/run-records.js";

/**
 * A warning when rollouts ended in an agent error — a command harness that exited non-zero,
 * timed out or printed no valid stdout JSON. They score as failures; the warning says how many
 * and shows the first one's detail (which ends with the stderr tail), so a crashing agent is
 * never read as a model that answers wrong. `undefined` when there were none.
 */
export function agentErrorWarning(
  records: RolloutRecord[],
  of: { total: number; what: string } = { total: records.length, what: "rollouts" },
): string | undefined {
  const failed = records.filter((record) => agentErrorEvent(record));
  if (failed.length === 0) return undefined;
  const first = agentErrorEvent(failed[0]);
  const detail = agentErrorDetail(first, 600);
  return `warning: ${failed.length} of ${of.total} ${of.what} ended in an agent error (the command exited non-zero, timed out or printed no valid JSON on stdout; they score as failures). First, task ${failed[0].taskId}: ${first?.kind}: ${detail}\n`;
}

/**
 * The same warning for an evolve run, from its records.json: over the seed harness's train
 * rollouts (records.json keeps the failing ones in full and every train task's rollout keys).
 */
export function evolveAgentErrorWarning(records: RunRecords): string | undefined {
  const seed = records.measures.train.seed.tasks;
  const keys = new Set(seed.flatMap((task) => task.rolloutKeys ?? []));
  const total = seed.reduce((sum, task) => sum + task.samples, 0);
  return agentErrorWarning(
    records.rollouts.filter((record) => keys.has(record.key)),
    { total, what: "train rollouts of the seed harness" },
  );
}
