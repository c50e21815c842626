import type { Task } from "../config/task-schema.js";
import type { RolloutRecord } from "../eval/types.js";
import type { Evidence } from "./evidence.js";
import type { PatternExample } from "./failure-pattern.js";
import { untrustedText } from "./untrusted-text.js";

/** Builds the bounded example of one failed run shown to the refiner roles. */
export function toExample(options: {
  evidence: Evidence;
  record?: RolloutRecord;
  task?: Task;
}): PatternExample {
  const { evidence, record, task } = options;
  const calls = record ? record.trace.steps.flatMap((step) => step.toolCalls).slice(0, 5) : [];
  return {
    rolloutKey: evidence.rolloutKey,
    taskId: evidence.taskId,
    category: evidence.category,
    task: untrustedText(task?.input ?? "(task text unavailable)", 600),
    output: untrustedText(record ? record.output || record.trace.output : "", 400),
    answer: record?.answer == null ? null : untrustedText(record.answer, 160),
    events: evidence.eventKinds,
    note: evidence.note,
    toolCalls: calls.map((call) => ({
      name: untrustedText(call.name, 40),
      arguments: untrustedText(call.arguments, 120),
      result: untrustedText(call.result, 120),
      error: call.error,
    })),
  };
}

/**
 * Picks up to `limit` members spread over categories: round-robin over the sorted categories,
 * distinct tasks first, so the roles see the pattern's breadth rather than one task repeated.
 */
export function spreadMembers(members: Evidence[], limit = 5): Evidence[] {
  const byCategory = new Map<string, Evidence[]>();
  for (const member of [...members].sort((a, b) =>
    a.id.localeCompare(b.id, "en", { numeric: true }),
  )) {
    const list = byCategory.get(member.category) ?? [];
    list.push(member);
    byCategory.set(member.category, list);
  }
  const queues = [...byCategory.keys()].sort().map((category) => byCategory.get(category) ?? []);
  const picked: Evidence[] = [];
  const seenTasks = new Set<string>();
  for (const distinctOnly of [true, false]) {
    let progress = true;
    while (picked.length < limit && progress) {
      progress = false;
      for (const queue of queues) {
        if (picked.length >= limit) break;
        const index = queue.findIndex(
          (member) => !picked.includes(member) && (!distinctOnly || !seenTasks.has(member.taskId)),
        );
        if (index < 0) continue;
        const member = queue[index];
        picked.push(member);
        seenTasks.add(member.taskId);
        progress = true;
      }
    }
  }
  return picked;
}

/** Builds the examples of a pattern from its members. */
export function patternExamples(options: {
  members: Evidence[];
  records: Map<string, RolloutRecord>;
  tasks: Map<string, Task>;
}): PatternExample[] {
  return spreadMembers(options.members).map((evidence) =>
    toExample({
      evidence,
      record: options.records.get(evidence.rolloutKey),
      task: options.tasks.get(evidence.taskId),
    }),
  );
}
