import { crashedAgentReason } from "../eval/agent-errors.js";
import type { RolloutRecord } from "../eval/types.js";
import { isRefusal, visibleText } from "../llm/reply-kind.js";

type AgentReplyKind = "usable" | "empty" | "reasoning-only" | "cut" | "refusal";

const agentRemedies: Record<
  Exclude<AgentReplyKind, "usable">,
  { words: string; remedy: string }
> = {
  empty: { words: "empty", remedy: "check the agent model and its server" },
  "reasoning-only": {
    words: "reasoning only, no answer",
    remedy:
      "enable the server's reasoning parser (vLLM: --reasoning-parser) or raise model.maxTokens so the model finishes thinking and answers",
  },
  cut: { words: "cut at the token limit", remedy: "raise model.maxTokens" },
  refusal: {
    words: "refused",
    remedy: "use an agent model that takes these tasks (this one declines them)",
  },
};

/**
 * The kind of every model turn of the records, from their traces (the runtime's events). A
 * rollout whose output has text that is not a refusal counts as one usable turn whatever its
 * steps say (a command harness may report steps without the model's words).
 */
function agentReplyCounts(records: RolloutRecord[]): Record<AgentReplyKind, number> {
  const counts: Record<AgentReplyKind, number> = {
    usable: 0,
    empty: 0,
    "reasoning-only": 0,
    cut: 0,
    refusal: 0,
  };
  for (const record of records) {
    const output = record.output || record.trace.output;
    if (visibleText(output) !== "" && !isRefusal({ content: output })) {
      counts.usable += 1;
      continue;
    }
    const { steps, events } = record.trace;
    steps.forEach((step, index) => {
      const event = events.find(
        (candidate) =>
          candidate.step === index &&
          (candidate.kind === "empty-reply" || candidate.kind === "refusal"),
      );
      counts[kindOf(step.assistant, step.toolCalls.length, event)] += 1;
    });
  }
  return counts;
}

function kindOf(
  text: string | null,
  toolCalls: number,
  event: { kind: string; detail?: string } | undefined,
): AgentReplyKind {
  if (toolCalls > 0) return "usable";
  if (event?.kind === "refusal" || isRefusal({ content: text })) return "refusal";
  if (visibleText(text) !== "") return "usable";
  if (/reasoning only/.test(event?.detail ?? "")) return "reasoning-only";
  return /token limit/.test(event?.detail ?? "") ? "cut" : "empty";
}

/**
 * Why an agent that never answered is not worth diagnosing, with its counts and the fix for the
 * most frequent kind: it crashed in every rollout or answered nothing in any (`crashedAgentReason`:
 * a command harness that exited non-zero or timed out each time, or printed an empty output and no
 * model turn), or its model gave no usable turn. Undefined when some rollout answered (right or
 * wrong).
 */
export function silentAgentReason(records: RolloutRecord[]): string | undefined {
  return crashedAgentReason(records) ?? unusableRepliesReason(records);
}

function unusableRepliesReason(records: RolloutRecord[]): string | undefined {
  const counts = agentReplyCounts(records);
  const turns = Object.values(counts).reduce((sum, count) => sum + count, 0);
  if (turns === 0 || counts.usable > 0) return undefined;
  const kinds = (Object.keys(agentRemedies) as (keyof typeof agentRemedies)[])
    .filter((kind) => counts[kind] > 0)
    .sort((a, b) => counts[b] - counts[a]);
  const parts = kinds.map((kind) => `${counts[kind]} ${agentRemedies[kind].words}`);
  return `the agent model gave no usable reply in ${turns} turns of ${records.length} rollouts (${parts.join(", ")}); ${agentRemedies[kinds[0]].remedy}`;
}
