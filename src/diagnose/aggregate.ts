import { harnessModules } from "../config/harness-schema.js";
import type { Task } from "../config/task-schema.js";
import type { RolloutRecord } from "../eval/types.js";
import type { ReplyKind } from "../llm/reply-kind.js";
import type { ChatProvider } from "../llm/types.js";
import type { Evidence } from "./evidence.js";
import { kebabCause } from "./failure-notes.js";
import { patternId, type UnclassifiedPattern } from "./failure-pattern.js";
import { patternExamples } from "./pattern-examples.js";
import { type PoolBuilder, poolNarrowPatterns } from "./pool-narrow.js";
import { patternMergeTemplate } from "./prompts/pattern-merge.js";
import {
  type PatternMergeReply,
  patternMergeJsonSchema,
  patternMergeReplySchema,
} from "./reply-schemas.js";
import { askStructured, isStructuredOutputFailure } from "./structured-ask.js";
import { untrustedText } from "./untrusted-text.js";

/** Failures sharing a signal key and a cause: the unit the merge step works on. */
export interface FailureGroup {
  /** Short key shown to the model (`g1`, `g2`, … by size). */
  key: string;
  /** `signalKey|cause`. */
  groupKey: string;
  signals: string[];
  cause: string;
  members: Evidence[];
}

/** Groups evidence deterministically by (signalKey, cause); largest groups first, ties by key. */
export function groupEvidence(evidence: Evidence[]): FailureGroup[] {
  const byKey = new Map<string, Evidence[]>();
  for (const item of evidence) {
    const groupKey = `${item.signalKey}|${item.cause}`;
    byKey.set(groupKey, [...(byKey.get(groupKey) ?? []), item]);
  }
  return [...byKey.entries()]
    .sort(([keyA, a], [keyB, b]) => b.length - a.length || keyA.localeCompare(keyB))
    .map(([groupKey, members], index) => ({
      key: `g${index + 1}`,
      groupKey,
      signals: members[0].signals,
      cause: members[0].cause,
      members,
    }));
}

/** The harness module a set of signals points at when no model named one. */
export function suspectedModule(signals: string[]): string {
  const has = (label: string) => signals.includes(label);
  if (has("task-dropped") || has("context-overflow")) return "context";
  if (has("step-limit")) return "agent_loop";
  if (has("tool-error") || has("gave-up")) return "observation";
  if (has("no-answer")) return "completion";
  if (has("numeric-mismatch") && has("no-tool-calls")) return "tools";
  return "prompt";
}

function normaliseModule(module: string, signals: string[]): string {
  const candidate = module
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  return [...harnessModules, "command"].includes(candidate) ? candidate : suspectedModule(signals);
}

function buildPattern(options: {
  groups: FailureGroup[];
  name?: string;
  description?: string;
  module?: string;
  context: { records: Map<string, RolloutRecord>; tasks: Map<string, Task> };
}): UnclassifiedPattern {
  const { groups } = options;
  const members = groups.flatMap((group) => group.members);
  const signals = [...new Set(groups.flatMap((group) => group.signals))].sort();
  const causes = [...new Set(groups.map((group) => group.cause))].sort();
  const categoryNames = [...new Set(members.map((member) => member.category))].sort();
  const taskIds = [...new Set(members.map((member) => member.taskId))].sort();
  const fallbackName = kebabCause(
    `${groups[0].signals.join("-")}${groups[0].cause === "unexplained" ? "" : `-${groups[0].cause}`}`,
    120,
  );
  const name = options.name ? kebabCause(options.name, 80) : fallbackName;
  const description =
    options.description?.trim() ||
    `Failures showing ${signals.join(", ")}${causes.some((cause) => cause !== "unexplained") ? ` (causes: ${causes.join(", ")})` : ""}: ${members.length} runs over ${taskIds.length} tasks.`;
  return {
    id: patternId(members.map((member) => member.rolloutKey)),
    name,
    description: untrustedText(description, 600),
    module:
      options.module === undefined
        ? suspectedModule(signals)
        : normaliseModule(options.module, signals),
    namedBy: options.name ? "llm" : "fallback",
    groupKeys: groups.map((group) => group.groupKey),
    signals,
    causes,
    memberKeys: members.map((member) => member.rolloutKey).sort(),
    taskIds,
    support: { tasks: taskIds.length, categories: categoryNames.length, categoryNames },
    examples: patternExamples({ members, ...options.context }),
  };
}

/** What the merge step shows the model for one group (bounded). */
function groupEvidenceBlock(group: FailureGroup, tasks: Map<string, Task>) {
  return {
    key: group.key,
    signals: group.signals,
    causes: [group.cause],
    size: group.members.length,
    categories: [...new Set(group.members.map((member) => member.category))].sort(),
    // Members with a note of their own first: an inherited cause has none to show.
    examples: [...group.members]
      .sort((a, b) => Number(a.inherited ?? false) - Number(b.inherited ?? false))
      .slice(0, 3)
      .map((member) => ({
        id: member.id,
        task: untrustedText(tasks.get(member.taskId)?.input ?? "", 240),
        note: member.note,
      })),
  };
}

/**
 * Applies a merge reply: a pattern claims the groups it lists (first claim wins, unknown keys
 * ignored); groups no pattern claims form one pattern per cause label (groups without a label:
 * one each), named from their signals.
 */
function applyMerge(options: {
  groups: FailureGroup[];
  reply: PatternMergeReply | null;
  records: Map<string, RolloutRecord>;
  tasks: Map<string, Task>;
}): UnclassifiedPattern[] {
  const context = { records: options.records, tasks: options.tasks };
  const byKey = new Map(options.groups.map((group) => [group.key, group]));
  const claimed = new Set<string>();
  const patterns: UnclassifiedPattern[] = [];
  for (const proposed of options.reply?.patterns ?? []) {
    const groups = [...new Set(proposed.groupKeys.map((key) => key.trim()))]
      .filter((key) => byKey.has(key) && !claimed.has(key))
      .map((key) => byKey.get(key) as FailureGroup);
    if (groups.length === 0) continue;
    for (const group of groups) claimed.add(group.key);
    patterns.push(
      buildPattern({
        groups,
        name: proposed.name.trim() ? proposed.name : undefined,
        description: proposed.description,
        module: proposed.module,
        context,
      }),
    );
  }
  const leftOver = new Map<string, FailureGroup[]>();
  for (const group of options.groups) {
    if (claimed.has(group.key)) continue;
    const key = group.cause === "unexplained" ? `group:${group.key}` : `cause:${group.cause}`;
    leftOver.set(key, [...(leftOver.get(key) ?? []), group]);
  }
  for (const groups of leftOver.values()) patterns.push(buildPattern({ groups, context }));
  return patterns;
}

/**
 * Cross-instance aggregation: deterministic grouping, then ONE `pattern_merge` call that merges
 * and names the groups. A reply that stays malformed after chatJson's bounded repair falls back
 * to one pattern per group, named from its signal key.
 */
export async function aggregateFailures(options: {
  evidence: Evidence[];
  records: RolloutRecord[];
  tasks: Task[];
  refiner: ChatProvider;
  maxGroupsShown?: number;
  /**
   * A pattern's support threshold (`minSupport.tasks`): narrow patterns of one module whose runs
   * share a decisive signal are pooled up to it (pool-narrow.ts). Absent: the merge as it is.
   */
  minTasks?: number;
  /** Hears the kind of every reply of the merge call (usable, empty, refused…). */
  onReplies?: (replies: ReplyKind[]) => void;
}): Promise<{ patterns: UnclassifiedPattern[]; groups: FailureGroup[]; merged: boolean }> {
  const groups = groupEvidence(options.evidence);
  const records = new Map(options.records.map((record) => [record.key, record]));
  const tasks = new Map(options.tasks.map((task) => [task.id, task]));
  if (groups.length === 0) return { patterns: [], groups, merged: false };
  let reply: PatternMergeReply | null = null;
  try {
    const shown = groups.slice(0, options.maxGroupsShown ?? 60);
    const { value, replies } = await askStructured({
      provider: options.refiner,
      schemaName: "pattern_merge",
      purpose: "pattern-merge",
      instructions: patternMergeTemplate,
      evidence: { groups: shown.map((group) => groupEvidenceBlock(group, tasks)) },
      jsonSchema: patternMergeJsonSchema,
      schema: patternMergeReplySchema,
    });
    reply = value;
    options.onReplies?.(replies);
  } catch (error) {
    if (!isStructuredOutputFailure(error)) throw error;
    options.onReplies?.(error.replies);
  }
  const asMerged = applyMerge({ groups, reply, records, tasks });
  const patterns =
    options.minTasks === undefined
      ? asMerged
      : poolNarrowPatterns({
          patterns: asMerged,
          groups,
          minTasks: options.minTasks,
          build: (pool) => pooledPattern(pool, { records, tasks }),
        });
  return { patterns, groups, merged: reply !== null };
}

/** The pattern of pooled narrow patterns: the first one's name and module, every one's runs. */
function pooledPattern(
  pool: Parameters<PoolBuilder>[0],
  context: { records: Map<string, RolloutRecord>; tasks: Map<string, Task> },
): UnclassifiedPattern {
  const { head, pooled, shared } = pool;
  const names = pooled.map((pattern) => pattern.name);
  const built = buildPattern({
    groups: pool.groups,
    name: head.namedBy === "llm" ? head.name : undefined,
    description: `${head.description} Pooled with ${names.join(", ")}: every run shows ${shared.join(", ")}.`,
    module: head.module,
    context,
  });
  return { ...built, pooled: { from: [head.name, ...names], signals: shared } };
}
