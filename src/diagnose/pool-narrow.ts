import type { FailureGroup } from "./aggregate.js";
import { decisiveSignals } from "./canonical-causes.js";
import type { UnclassifiedPattern } from "./failure-pattern.js";

/** Builds the pattern of pooled groups, named and described after the first (largest) pattern. */
export type PoolBuilder = (options: {
  groups: FailureGroup[];
  head: UnclassifiedPattern;
  pooled: UnclassifiedPattern[];
  shared: string[];
}) => UnclassifiedPattern;

/**
 * Pools the narrow patterns a merge left apart although they fail alike: patterns below
 * `minTasks` that the merge pointed at the same harness module and whose every run shares a
 * decisive signal (`decisiveSignals`: cut at the step limit, the task statement dropped, a tool
 * error…) become one pattern when together they reach `minTasks`. A model's merge may split one
 * cause in two names (`step-budget-exhausted` 2 tasks, `ran-out-of-steps` 1): each alone is too
 * small to act on, though the runtime says they ended the same way. Runs with no decisive signal
 * (a plain wrong answer) are never pooled: only their labels tell causes apart. Supported
 * patterns are left as the merge made them. Deterministic: largest pattern first, ties by name.
 */
export function poolNarrowPatterns(options: {
  patterns: UnclassifiedPattern[];
  groups: FailureGroup[];
  minTasks: number;
  build: PoolBuilder;
}): UnclassifiedPattern[] {
  const groups = new Map(options.groups.map((group) => [group.groupKey, group]));
  const sharedOf = new Map(
    options.patterns.map((pattern) => [pattern, sharedDecisive(pattern, groups)]),
  );
  const shared = (pattern: UnclassifiedPattern) => sharedOf.get(pattern) ?? [];
  const byModule = new Map<string, UnclassifiedPattern[]>();
  for (const pattern of options.patterns) {
    if (pattern.support.tasks >= options.minTasks || shared(pattern).length === 0) continue;
    byModule.set(pattern.module, [...(byModule.get(pattern.module) ?? []), pattern]);
  }
  const replaced = new Map<UnclassifiedPattern, UnclassifiedPattern | null>();
  for (const narrow of byModule.values()) {
    for (const pool of pools(narrow, shared)) {
      const taskIds = new Set(pool.members.flatMap((pattern) => pattern.taskIds));
      if (pool.members.length < 2 || taskIds.size < options.minTasks) continue;
      const [head, ...rest] = pool.members;
      const pooledGroups = pool.members.flatMap((pattern) =>
        pattern.groupKeys.flatMap((key) => groups.get(key) ?? []),
      );
      replaced.set(
        head,
        options.build({ groups: pooledGroups, head, pooled: rest, shared: pool.shared }),
      );
      for (const pattern of rest) replaced.set(pattern, null);
    }
  }
  return options.patterns.flatMap((pattern) => {
    const replacement = replaced.get(pattern);
    if (replacement === undefined) return [pattern];
    return replacement === null ? [] : [replacement];
  });
}

/**
 * Greedy pools of one module's narrow patterns: the largest left starts a pool, and each other
 * joins it while the decisive signals every member shares stay non-empty.
 */
function pools(
  narrow: UnclassifiedPattern[],
  shared: (pattern: UnclassifiedPattern) => string[],
): { members: UnclassifiedPattern[]; shared: string[] }[] {
  let left = [...narrow].sort(
    (a, b) => b.support.tasks - a.support.tasks || a.name.localeCompare(b.name),
  );
  const made: { members: UnclassifiedPattern[]; shared: string[] }[] = [];
  while (left.length > 0) {
    const [head, ...rest] = left;
    const pool = { members: [head], shared: shared(head) };
    left = [];
    for (const pattern of rest) {
      const common = pool.shared.filter((signal) => shared(pattern).includes(signal));
      if (common.length === 0) {
        left.push(pattern);
        continue;
      }
      pool.members.push(pattern);
      pool.shared = common;
    }
    made.push(pool);
  }
  return made;
}

/** The decisive signals every run of a pattern shows (read from its groups' signal keys). */
function sharedDecisive(pattern: UnclassifiedPattern, groups: Map<string, FailureGroup>): string[] {
  const signalSets = pattern.groupKeys.map((key) => groups.get(key)?.signals ?? []);
  if (signalSets.length === 0) return [];
  return decisiveSignals.filter((signal) =>
    signalSets.every((signals) => signals.includes(signal)),
  );
}
