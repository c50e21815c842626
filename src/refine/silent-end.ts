import { silentAgentReason } from "../diagnose/agent-replies.js";
import type { DiagnosisReport } from "../diagnose/diagnose-batch.js";
import { type ReplyCounts, ReplyTally, silentRefinerReason } from "../diagnose/reply-tally.js";
import type { RolloutRecord } from "../eval/types.js";
import type { RefinementRecord } from "./refinement-record.js";

/** Why an iteration could not do its job, as a stop: the agent or the refiner never answered. */
export interface SilentEnd {
  stoppedBy: "agent-unusable" | "refiner-unusable";
  /** The cause with its counts per role and kind, and the fix. */
  reason: string;
}

/** The refiner's replies of one iteration, per role and kind: the diagnosis's and the roles'. */
function iterationReplies(options: {
  diagnosis?: DiagnosisReport;
  refinement?: RefinementRecord;
}): ReplyCounts {
  const tally = new ReplyTally();
  tally.merge(options.diagnosis?.stats?.replies);
  for (const turn of options.refinement?.turns ?? []) tally.add(turn.role, turn.replies ?? []);
  return tally.counts();
}

/**
 * The one place the reply counts become a stop: an iteration whose agent gave no usable reply in
 * its whole batch (`agent-unusable`), or whose refiner calls — notes, merge, every role — got no
 * usable reply at all (`refiner-unusable`), cannot teach the harness anything; going on would
 * pay for the same again. Undefined when the iteration heard something usable.
 */
export function silentEnd(options: {
  records: RolloutRecord[];
  diagnosis?: DiagnosisReport;
  refinement?: RefinementRecord;
}): SilentEnd | undefined {
  const agent = options.diagnosis?.stats?.agentSilent ?? silentAgentReason(options.records);
  if (agent) return { stoppedBy: "agent-unusable", reason: agent };
  const refiner = silentRefinerReason(iterationReplies(options));
  return refiner ? { stoppedBy: "refiner-unusable", reason: refiner } : undefined;
}
