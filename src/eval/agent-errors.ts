import type { AgentEvent } from "../agent/types.js";
import { visibleText } from "../llm/reply-kind.js";
import type { RolloutRecord } from "./types.js";

/** Event kinds that mean the agent process itself failed (a command harness), not its answer. */
const agentErrorKinds = new Set(["process-error", "timeout"]);

/** The record's agent-error event (the command exited non-zero, timed out, printed no JSON). */
export function agentErrorEvent(record: RolloutRecord): AgentEvent | undefined {
  return record.trace.events.find((event) => agentErrorKinds.has(event.kind));
}

/**
 * The agent ran without an error yet answered nothing: no model turn reported and an empty
 * output (a command harness printing `{"output": ""}`).
 */
function answeredNothing(record: RolloutRecord): boolean {
  return (
    record.trace.steps.length === 0 &&
    visibleText(record.output || record.trace.output) === "" &&
    !agentErrorEvent(record)
  );
}

/** Why `total` rollouts in which the agent answered nothing (`answeredNothing`) measured nothing. */
function emptyOutputReason(total: number, firstTaskId: string, who: string): string {
  return `${who} printed an empty output in every one of ${total} rollouts and reported no model turn (first: task ${firstTaskId}); a command harness must print its answer in the JSON's "output" field (docs/command-harness.md): \`ecdysis eval --limit 1\` shows what it printed`;
}

/** An agent error's detail on one line (it ends with the agent's stderr tail), cut at `max`. */
export function agentErrorDetail(event: AgentEvent | undefined, max: number): string {
  return (event?.detail ?? "").replace(/\s+/g, " ").slice(0, max);
}

/**
 * Why rollouts measured nothing when the agent (`who`) crashed in every one of them (`total` of
 * them, default all the records): the counts per kind, the first one's detail and the fix it
 * points to — or answered nothing in every one (`answeredNothing`). Undefined when some rollout
 * ran to an answer (right or wrong).
 */
export function crashedAgentReason(
  records: RolloutRecord[],
  total = records.length,
  who = "the agent",
): string | undefined {
  const tally = new CrashTally();
  for (const record of records) tally.add(record);
  return tally.reason(total, who);
}

/**
 * `crashedAgentReason` over records seen one at a time (a measurement of 20,000 rollouts keeps
 * none): the count of crashes per kind and the first crash.
 */
export class CrashTally {
  private readonly kinds = new Map<string, number>();
  private first: { taskId: string; event: AgentEvent } | undefined;
  private crashed = 0;
  private silent: { count: number; firstTaskId?: string } = { count: 0 };

  /** Counts `record` if the agent crashed in it, or answered nothing (`answeredNothing`). */
  add(record: RolloutRecord): void {
    if (answeredNothing(record)) {
      this.silent.count += 1;
      this.silent.firstTaskId ??= record.taskId;
    }
    const event = agentErrorEvent(record);
    if (!event) return;
    this.crashed += 1;
    this.kinds.set(event.kind, (this.kinds.get(event.kind) ?? 0) + 1);
    this.first ??= { taskId: record.taskId, event };
  }

  /** As `crashedAgentReason`: why none of `total` rollouts measured anything, if none did. */
  reason(total: number, who = "the agent"): string | undefined {
    const first = this.first;
    if (total > 0 && this.silent.count === total && this.silent.firstTaskId)
      return emptyOutputReason(total, this.silent.firstTaskId, who);
    if (total === 0 || this.crashed < total || !first) return undefined;
    const parts = [...this.kinds].map(([kind, count]) => `${count} ${kind}`).join(", ");
    const detail = agentErrorDetail(first.event, 400);
    return `${who} crashed in every one of ${total} rollouts (${parts}), so none reached a score. First, task ${first.taskId}: ${first.event.kind}: ${detail}. ${crashFix(first.event)}`;
  }
}

function crashFix(event: AgentEvent | undefined): string {
  const detail = event?.detail ?? "";
  if (/no valid rollout token/.test(detail))
    return "The agent sent the model gateway no rollout token: it must read its API key from the variable model.apiKeyEnv names (OPENAI_API_KEY when unset; Ecdysis puts each rollout's token there) and its base URL from OPENAI_BASE_URL";
  if (event?.kind === "timeout")
    return "Raise harness.timeoutMs, or find what the agent waits on with `ecdysis eval --limit 1`";
  return "Fix the agent so it runs: `ecdysis eval --limit 1` shows its exit code and stderr";
}
