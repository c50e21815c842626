import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { RolloutRecord } from "../eval/types.js";
import type { PromptCall } from "../evolve/prompt-log.js";
import type { EvolveResult, IterationRecord } from "../evolve/result-schema.js";
import type { RunRecords } from "../evolve/run-records.js";
import { anchorId } from "./html.js";
import { recordKey } from "./validation-stages.js";

/** What report.html is rendered from: result.json, and records.json / prompts.jsonl when the run kept them. */
export interface HtmlInput {
  result: EvolveResult;
  records?: RunRecords;
  prompts?: PromptCall[];
}

/** A pattern as a link target: where it is listed and what it is called. */
export interface PatternRef {
  id: string;
  name: string;
  anchor: string;
  iteration: number;
  /** The record that found it (`recordKey`: `2`, or `2.1` for a follow-up such as a repair round). */
  record: string;
  pattern: FailurePattern;
}

/** An edit of some iteration's candidate that names a pattern among those it addresses. */
export interface AddressingEdit {
  iteration: number;
  /** The record's key (`recordKey`). */
  record: string;
  verdict: IterationRecord["verdict"];
  edit: IterationRecord["applied"][number];
}

/** The joins every section uses: patterns, rollouts, tasks and prompts by id. */
export interface ReportIndex extends HtmlInput {
  patterns: PatternRef[];
  rollouts: Map<string, RolloutRecord>;
  tasks: Map<string, { id: string; category: string; input: string; expected: unknown }>;
  calls: Map<string, PromptCall>;
  /** The patterns a failing rollout is a member of. */
  patternsOf(rolloutKey: string): PatternRef[];
  /** A pattern id as a reader sees it: its name, preferring the pattern of `iteration`. */
  patternRef(id: string, iteration?: number): PatternRef | undefined;
  /** The edits (of any iteration, accepted or not) that name the pattern `id` among their targets. */
  editsFor(id: string): AddressingEdit[];
  /** `seed`, `final`, `after iteration 1`, `rejected candidate of iteration 2`, … for a harness hash. */
  harnessLabel(hash: string): string;
  /** Sort key of a harness: seed, the iterations' candidates in order, final. */
  harnessRank(hash: string): number;
}

/** Anchor of a failing rollout's drill-down. */
export const rolloutAnchor = (key: string) => anchorId("rollout", key);
/** Anchor of a train task's row. */
export const taskAnchor = (taskId: string) => anchorId("task", taskId);
/** Anchor of a kept refiner call. */
export const callAnchor = (id: string) => anchorId("call", id);
/** Anchor of a record's row in the candidate table, by its key (`recordKey`: `2`, `2.1`). */
export const candidateAnchor = (key: string | number) => `candidate-${key}`;

function patternRefs(iterations: readonly IterationRecord[]): PatternRef[] {
  const refs: PatternRef[] = [];
  for (const iteration of iterations) {
    const record = recordKey(iteration);
    for (const pattern of iteration.diagnosis?.patterns ?? [])
      refs.push({
        id: pattern.id,
        name: pattern.name,
        anchor: anchorId(`pattern-${record}`, pattern.id),
        iteration: iteration.index,
        record,
        pattern,
      });
  }
  return refs;
}

function harnessLabels(result: EvolveResult): Map<string, string> {
  const labels = new Map<string, string>();
  for (const iteration of result.iterations) {
    if (!iteration.candidateHash || labels.has(iteration.candidateHash)) continue;
    labels.set(
      iteration.candidateHash,
      iteration.verdict === "accepted"
        ? `after iteration ${recordKey(iteration)}`
        : `rejected candidate of iteration ${recordKey(iteration)}`,
    );
  }
  labels.set(result.harness.finalHash, "final");
  labels.set(result.harness.seedHash, "seed");
  return labels;
}

/** Where a harness comes in the run: the seed first, then each iteration's candidate, the final last. */
function harnessRank(result: EvolveResult, hash: string): number {
  if (hash === result.harness.seedHash) return -1;
  if (hash === result.harness.finalHash) return 1e6;
  const position = result.iterations.findIndex((iteration) => iteration.candidateHash === hash);
  return position === -1 ? 1e5 : position;
}

/** Builds the joins of one report. */
export function indexReport(input: HtmlInput): ReportIndex {
  const patterns = patternRefs(input.result.iterations);
  const byMember = new Map<string, PatternRef[]>();
  for (const ref of patterns)
    for (const key of ref.pattern.memberKeys)
      byMember.set(key, [...(byMember.get(key) ?? []), ref]);
  const labels = harnessLabels(input.result);
  const edits: AddressingEdit[] = input.result.iterations.flatMap((iteration) =>
    iteration.applied.map((edit) => ({
      iteration: iteration.index,
      record: recordKey(iteration),
      verdict: iteration.verdict,
      edit,
    })),
  );
  return {
    ...input,
    patterns,
    rollouts: new Map((input.records?.rollouts ?? []).map((record) => [record.key, record])),
    tasks: new Map((input.records?.tasks ?? []).map((task) => [task.id, task])),
    calls: new Map((input.prompts ?? []).map((call) => [call.id, call])),
    patternsOf: (key) => byMember.get(key) ?? [],
    patternRef: (id, iteration) =>
      patterns.find((ref) => ref.id === id && ref.iteration === iteration) ??
      patterns.findLast((ref) => ref.id === id),
    editsFor: (id) => edits.filter((entry) => entry.edit.patterns.includes(id)),
    harnessLabel: (hash) => labels.get(hash) ?? `harness ${hash.slice(0, 12)}`,
    harnessRank: (hash) => harnessRank(input.result, hash),
  };
}
