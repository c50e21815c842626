import type { FailurePattern } from "../diagnose/failure-pattern.js";
import { untrustedText } from "../diagnose/untrusted-text.js";
import type { RejectedProposal } from "./role-schemas.js";

/** How a pattern is shown to the roles: description, support and up to five examples. */
export function patternForRoles(pattern: FailurePattern) {
  return {
    id: pattern.id,
    name: pattern.name,
    description: pattern.description,
    module: pattern.module,
    signals: pattern.signals,
    support: { tasks: pattern.support.tasks, categories: pattern.support.categories },
    examples: pattern.examples.slice(0, 5).map((example) => ({
      category: example.category,
      task: example.task,
      output: example.output,
      answer: example.answer,
      events: example.events,
      note: example.note,
      toolCalls: example.toolCalls,
    })),
  };
}

/** A pattern's headline for roles that need no examples (Architect, Skeptic). */
export function patternHeadline(pattern: FailurePattern) {
  return {
    id: pattern.id,
    name: pattern.name,
    description: pattern.description,
    support: { tasks: pattern.support.tasks, categories: pattern.support.categories },
    exampleTasks: pattern.examples.slice(0, 3).map((example) => untrustedText(example.task, 200)),
  };
}

/** Previously rejected proposals, newest last, bounded. */
export function rejectedForRoles(rejected: RejectedProposal[]) {
  return rejected.slice(-10).map((proposal) => ({
    changes: proposal.hms.changes.map((change) => ({
      module: change.module,
      change: untrustedText(change.change, 300),
    })),
    reason: untrustedText(proposal.reason, 300),
    patterns: proposal.patternIds,
  }));
}
