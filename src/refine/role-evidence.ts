import type { FailurePattern } from "../diagnose/failure-pattern.js";
import { untrustedText } from "../diagnose/untrusted-text.js";
import type { RejectedProposal } from "./role-schemas.js";

/**
 * How a pattern is shown to the roles: description, support and up to five examples. Text is
 * cleaned again here because patterns may come back from disk or another process.
 */
export function patternForRoles(pattern: FailurePattern, rejected: RejectedProposal[] = []) {
  return {
    id: pattern.id,
    name: untrustedText(pattern.name, 120),
    description: untrustedText(pattern.description, 600),
    module: pattern.module,
    signals: pattern.signals,
    support: { tasks: pattern.support.tasks, categories: pattern.support.categories },
    examples: pattern.examples.slice(0, 5).map((example) => ({
      category: example.category,
      task: untrustedText(example.task, 600),
      output: untrustedText(example.output, 400),
      answer: example.answer === null ? null : untrustedText(example.answer, 160),
      events: example.events,
      note: untrustedText(example.note, 300),
      toolCalls: example.toolCalls.slice(0, 5).map((call) => ({
        name: untrustedText(call.name, 40),
        arguments: untrustedText(call.arguments, 120),
        result: untrustedText(call.result, 120),
        error: call.error,
      })),
    })),
    ...rejectedForPattern(pattern, rejected),
  };
}

/**
 * A pattern as the Architect and Skeptic see it: support and the example tasks with their notes
 * (enough to judge whether a change is cross-instance or names one task's specifics).
 */
export function patternHeadline(pattern: FailurePattern, rejected: RejectedProposal[] = []) {
  return {
    id: pattern.id,
    name: untrustedText(pattern.name, 120),
    description: untrustedText(pattern.description, 600),
    support: { tasks: pattern.support.tasks, categories: pattern.support.categories },
    examples: pattern.examples.slice(0, 5).map((example) => ({
      category: example.category,
      task: untrustedText(example.task, 400),
      note: untrustedText(example.note, 300),
    })),
    ...rejectedForPattern(pattern, rejected),
  };
}

/**
 * The earlier proposals for this pattern (matched by id or name) that were rejected, with why:
 * a re-attempt sees what was tried for it and failed. Omitted when there are none.
 */
function rejectedForPattern(pattern: FailurePattern, rejected: RejectedProposal[]) {
  const mine = rejected.filter(
    (proposal) =>
      proposal.patternIds.includes(pattern.id) || proposal.patternIds.includes(pattern.name),
  );
  if (mine.length === 0) return {};
  return {
    previousAttempts: mine.slice(-5).map((proposal) => ({
      changes: proposal.hms.changes.map((change) => untrustedText(change.change, 400)),
      // A change pruned on this very harness would be dropped if proposed again; on an earlier
      // one, the failure that masked it may be gone.
      outcome: !proposal.earlierHarness
        ? "rejected"
        : proposal.pruned
          ? "inconclusive"
          : "rejected on an earlier harness",
      why: untrustedText(proposal.reason, 300),
    })),
  };
}

/**
 * Proposals rejected on the harness being refined (pruned changes included: proposed again here,
 * they would be dropped unvalidated), newest last, bounded.
 */
export function rejectedForRoles(rejected: RejectedProposal[]) {
  return rejected
    .filter((proposal) => !proposal.earlierHarness)
    .slice(-10)
    .map((proposal) => ({
      changes: proposal.hms.changes.map((change) => ({
        module: change.module,
        change: untrustedText(change.change, 800),
      })),
      reason: untrustedText(proposal.reason, 300),
      patterns: proposal.patternIds,
    }));
}
