import type { SandboxStatus } from "../agent/sandbox/sandbox-policy.js";
import type { GateConfig } from "../config/config-schema.js";
import type { EvalResult, RolloutRecord } from "../eval/types.js";
import type { ReachFlag } from "../harness/code-reaches.js";
import { heldOutGate, withinTolerance } from "./gate-criteria.js";
import { type GateVerdict, gateDecision } from "./gate-verdict.js";
import { binomialUpperTail, comparePaired, type PairedComparison } from "./paired-test.js";
import { passMapOf, scoreOf } from "./records.js";
import type { EvolveGate } from "./result-schema.js";
import type { Score } from "./validation.js";

/** One side of the gate: a harness on the held-out split. */
export interface GateSide {
  harnessHash: string;
  score: Score;
  /** Mean LLM cost (USD) and tokens per task, counted from the traces whether or not they were cached. */
  costPerTask: number;
  tokensPerTask: number;
}

/** Tasks that flipped, grouped under one key (a category or a failure signal). */
export interface FlipGroup {
  key: string;
  fixed: string[];
  broken: string[];
}

/** What runGate writes to gate.json and returns. */
export interface GateResult {
  verdict: "pass" | "fail";
  passed: boolean;
  reason: string;
  /** What the paired evidence says: better (significant), not worse, or worse. */
  evidence: GateVerdict;
  statusContext: string;
  tolerance: number;
  base: GateSide;
  head: GateSide;
  /** Paired comparison base → head; `pValue` is one-sided for "head is better". */
  comparison: PairedComparison;
  /** One-sided exact McNemar p-value for "head is worse". */
  pWorse: number;
  flips: { byCategory: FlipGroup[]; bySignal: FlipGroup[] };
  /** A command harness: whether the head's code ran in the OS sandbox, and the warning when it did not. */
  sandbox?: SandboxStatus;
  /** What the head's code files newly reach for, compared with the base's (flagged for the reviewer). */
  reaches?: ReachFlag[];
}

function side(result: EvalResult, records: RolloutRecord[]): GateSide {
  const n = Math.max(1, result.n);
  const cost = records.reduce((sum, record) => sum + record.trace.usage.costUsd, 0);
  const tokens = records.reduce(
    (sum, record) => sum + record.trace.usage.promptTokens + record.trace.usage.completionTokens,
    0,
  );
  return {
    harnessHash: result.harnessHash,
    score: scoreOf(result),
    costPerTask: cost / n,
    tokensPerTask: tokens / n,
  };
}

/** The failure signal of a failed rollout: verdict reason plus the sorted event kinds. */
export function failureSignal(record: RolloutRecord | undefined): string {
  if (!record) return "unknown";
  const events = [...new Set(record.trace.events.map((event) => event.kind))].sort();
  return [record.verdict.reason, ...events].join(" + ");
}

function group(
  taskIds: { fixed: string[]; broken: string[] },
  keyOf: (taskId: string, fixed: boolean) => string,
): FlipGroup[] {
  const groups = new Map<string, FlipGroup>();
  const add = (taskId: string, fixed: boolean): void => {
    const key = keyOf(taskId, fixed);
    const entry = groups.get(key) ?? { key, fixed: [], broken: [] };
    (fixed ? entry.fixed : entry.broken).push(taskId);
    groups.set(key, entry);
  };
  for (const taskId of taskIds.fixed) add(taskId, true);
  for (const taskId of taskIds.broken) add(taskId, false);
  return [...groups.values()].sort(
    (a, b) =>
      b.fixed.length + b.broken.length - (a.fixed.length + a.broken.length) ||
      a.key.localeCompare(b.key),
  );
}

/**
 * Paired comparison of base and head on the held-out split. Verdict `pass` unless the head's
 * accuracy is below the base's minus `tolerance`. Flips are grouped by category and by the
 * failure signal of the failing side (base's for fixed tasks, head's for broken ones).
 */
export function compareGate(options: {
  base: { result: EvalResult; records: RolloutRecord[] };
  head: { result: EvalResult; records: RolloutRecord[] };
  gate: GateConfig;
}): GateResult {
  const { base, head, gate } = options;
  const comparison = comparePaired(passMapOf(base.result), passMapOf(head.result));
  const category = new Map(base.result.tasks.map((task) => [task.taskId, task.category]));
  const failed = (records: RolloutRecord[]): Map<string, RolloutRecord> =>
    new Map(
      records.filter((record) => !record.verdict.pass).map((record) => [record.taskId, record]),
    );
  const baseFailed = failed(base.records);
  const headFailed = failed(head.records);
  const baseSide = side(base.result, base.records);
  const headSide = side(head.result, head.records);
  const decision = gateDecision({
    base: baseSide.score.accuracy,
    head: headSide.score.accuracy,
    comparison,
    gate,
    legacy: withinTolerance(gate.tolerance)(baseSide.score.accuracy, headSide.score.accuracy),
  });
  const passed = decision.passed;
  return {
    verdict: passed ? "pass" : "fail",
    passed,
    reason: decision.reason,
    evidence: decision.verdict,
    statusContext: gate.statusContext,
    tolerance: gate.tolerance,
    base: baseSide,
    head: headSide,
    comparison,
    pWorse: binomialUpperTail(
      comparison.broken.length,
      comparison.fixed.length + comparison.broken.length,
    ),
    flips: {
      byCategory: group(comparison, (taskId) => category.get(taskId) ?? "default"),
      bySignal: group(comparison, (taskId, fixed) =>
        failureSignal(fixed ? baseFailed.get(taskId) : headFailed.get(taskId)),
      ),
    },
  };
}

/** The held-out gate of an evolve run: final must beat the seed when `requireImprovement`, else not lose beyond the tolerance. */
export function evolveGate(options: {
  baseline: EvalResult;
  final: EvalResult;
  gate: GateConfig;
}): EvolveGate {
  const { baseline, final, gate } = options;
  const comparison = comparePaired(passMapOf(baseline), passMapOf(final));
  const decision = gateDecision({
    base: baseline.accuracy,
    head: final.accuracy,
    comparison,
    gate,
    legacy: heldOutGate(gate)(baseline.accuracy, final.accuracy),
  });
  return {
    passed: decision.passed,
    reason: decision.reason,
    comparison,
    tolerance: gate.tolerance,
    requireImprovement: gate.requireImprovement,
    evidence: decision.verdict,
    ...(gate.require ? { require: gate.require } : {}),
  };
}
