import { silentAgentReason } from "../diagnose/agent-replies.js";
import { AgentUnusableError } from "../errors/agent-unusable-error.js";
import { crashedAgentReason } from "../eval/agent-errors.js";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import type { GateResult } from "./gate-result.js";

interface GateRun {
  result: EvalResult;
  records: RolloutRecord[];
}

/** Why a side measured nothing: it crashed in every rollout, or never answered in any. */
function crashed(run: GateRun, who: string): string | undefined {
  const total = run.result.cost.rollouts + run.result.cost.cachedRollouts;
  const crash = crashedAgentReason(run.records, total, who);
  if (crash || run.records.length !== total) return crash;
  const silent = silentAgentReason(run.records);
  return silent && who !== "the agent" ? `${who}: ${silent}` : silent;
}

/**
 * The gate's answer when an agent never ran: both sides crashed (or answered nothing) in every
 * rollout → an
 * AgentUnusableError (nothing was measured; 0% against 0% is no "not worse"); only the head →
 * the comparison failed with the crash as its reason (a head that cannot run is worse than a
 * base that answers, right or wrong). A base that crashed everywhere is compared as it is: a
 * head that fixes it passes on its fixes.
 */
export function judgeCrashes(compared: GateResult, base: GateRun, head: GateRun): GateResult {
  const headCrash = crashed(head, "the head's agent");
  if (!headCrash) return compared;
  const baseCrash = crashed(base, "the agent");
  if (baseCrash)
    throw new AgentUnusableError(`the gate measured nothing, on either side: ${baseCrash}`);
  return { ...compared, verdict: "fail", passed: false, reason: headCrash };
}
