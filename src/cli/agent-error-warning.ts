import type { RolloutRecord } from "../eval/types.js";

/** Event kinds that mean the agent process itself failed (a command harness), not its answer. */
const agentErrorKinds = new Set(["process-error", "timeout"]);

/**
 * A warning when rollouts ended in an agent error — a command harness that exited non-zero,
 * timed out or printed no valid stdout JSON. They score as failures; the warning says how many
 * and shows the first one's detail (which ends with the stderr tail), so a crashing agent is
 * never read as a model that answers wrong. `undefined` when there were none.
 */
export function agentErrorWarning(records: RolloutRecord[]): string | undefined {
  const failed = records.filter((record) =>
    record.trace.events.some((event) => agentErrorKinds.has(event.kind)),
  );
  if (failed.length === 0) return undefined;
  const first = failed[0].trace.events.find((event) => agentErrorKinds.has(event.kind));
  const detail = (first?.detail ?? "").replace(/\s+/g, " ").slice(0, 600);
  const of = `${failed.length} of ${records.length} rollouts`;
  return `warning: ${of} ended in an agent error (the command exited non-zero, timed out or printed no valid JSON on stdout; they score as failures). First, task ${failed[0].taskId}: ${first?.kind}: ${detail}\n`;
}
