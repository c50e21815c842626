import type { RefinementRecord } from "../../refine/refinement-record.js";
import { guardRefinement } from "../guard.js";
import type { Rng } from "../rng.js";
import type { RunContext } from "../run-context.js";
import type { IterationScope } from "../run-scope.js";
import type { Observation, Proposal } from "../strategy.js";
import { type Lineage, type MergePlan, mergeSubsample, planMerge } from "./gepa/merge.js";
import type { IterativeStream } from "./iterative.js";
import type { Drawn, IterativeState, PoolEntry } from "./iterative-steps.js";

// GEPA's merge proposer in the iterative baseline's loop (gepa-ai/gepa `core/engine.py`: a merge
// is due after each reflective child that joins the pool; the iteration after one tries a merge
// instead of a reflection, at most `max_merge_invocations` times; `proposer/merge.py`: the
// merged candidate is scored on a subsample of tasks where its parents differ and fully
// evaluated only when its sum there is no lower than either parent's).

/** The merge proposer's counters (GEPA's `merges_due`, `total_merges_tested`, `last_iter_found_new_program`). */
export interface MergeCounters {
  due: number;
  tested: number;
  lastFoundNew: boolean;
  /** Triplets `i-j-ancestor` already tried. */
  tried: string[];
}

/** What a merge proposal carries in its `Drawn`: the other parent, the ancestor, and its bar. */
export interface MergeDraw {
  j: number;
  ancestor: number;
  key: string;
  /** The higher of the two parents' summed scores on the subsample (from their full evaluations). */
  baseline: number;
}

/** The counters at the start of a run. */
export const noMerges: MergeCounters = { due: 0, tested: 0, lastFoundNew: false, tried: [] };

/** The refinement record of a merge: no role was asked; its edits are the merged modules'. */
function mergeRecord(edits: RefinementRecord["edits"]): RefinementRecord {
  return {
    mode: "reflect",
    patternIds: [],
    turns: [],
    diagnoses: [],
    rounds: [],
    outcome: "accepted",
    hms: null,
    rejection: null,
    edits,
    invalidEdits: [],
    droppedEdits: [],
  };
}

/**
 * A merge proposal when one is due (after a reflection added a child, merges left), or undefined:
 * the iteration then reflects as usual. The candidate is the common ancestor plus the merged
 * modules' edits, through the guards; a merge the guards refuse, or one that rebuilds a harness
 * already in the pool, is passed over for another triplet (GEPA skips a merge it has seen).
 */
export function proposeMerge(options: {
  context: RunContext;
  state: IterativeState;
  scope: IterationScope<IterativeStream>;
}): Proposal<Drawn> | undefined {
  const { context, state, scope } = options;
  const { merge, maxMergeInvocations } = context.config.evolve.iterative;
  const counters = state.merges;
  if (!merge || counters.due <= 0 || !counters.lastFoundNew) return undefined;
  if (counters.tested >= maxMergeInvocations) return undefined;
  const rng = scope.rng("merge");
  const tried = new Set(counters.tried);
  for (let attempt = 0; attempt < 10; attempt++) {
    const plan = planMerge({
      scores: state.pool.map((entry) => entry.scores),
      lineages: state.pool.map((entry) => entry.lineage),
      tried,
      rng,
    });
    if (!plan) return undefined;
    tried.add(plan.key);
    const refinement = mergeRecord(plan.edits);
    const ancestor = state.pool[plan.ancestor];
    const guarded = guardRefinement({
      harness: ancestor.harness,
      refinement,
      guard: context.guard,
    });
    const hash = guarded.candidate?.hash;
    if (!guarded.candidate || state.pool.some((entry) => entry.harness.hash === hash)) continue;
    const data = mergeDraw({ context, state, plan, rng });
    const seen: Observation = {
      index: scope.index,
      parent: ancestor.harness,
      batch: { tasks: context.train, run: ancestor.run },
      traces: [],
    };
    return {
      seen,
      refinement,
      guarded,
      targets: [],
      data,
      kind: "candidate",
      candidate: guarded.candidate,
    };
  }
  return undefined;
}

/** What a merge proposal drew: parent `i`, the subsample, and the parents' best sum on it. */
function mergeDraw(options: {
  context: RunContext;
  state: IterativeState;
  plan: MergePlan;
  rng: Rng;
}): Drawn {
  const { context, state, plan } = options;
  const [first, other] = [state.pool[plan.i], state.pool[plan.j]];
  const ids = mergeSubsample({ i: first.scores, j: other.scores, rng: options.rng });
  const sum = (entry: PoolEntry) =>
    ids.reduce((total, id) => total + (entry.scores.get(id) ?? 0), 0);
  const byId = new Map(context.train.map((task) => [task.id, task]));
  return {
    parentIndex: plan.i,
    pointer: first.pointer,
    draws: state.draws,
    ids,
    tasks: ids.flatMap((id) => byId.get(id) ?? []),
    parentRun: first.run,
    merge: {
      j: plan.j,
      ancestor: plan.ancestor,
      key: plan.key,
      baseline: Math.max(sum(first), sum(other)),
    },
  };
}

/** The merge counters after a proposal: a reflective child in the pool makes a merge due. */
export function nextMerges(
  counters: MergeCounters,
  step: { merge?: MergeDraw; joinedPool: boolean },
): MergeCounters {
  if (step.merge)
    return {
      due: step.joinedPool ? counters.due - 1 : counters.due,
      tested: counters.tested + 1,
      lastFoundNew: false,
      tried: [...counters.tried, step.merge.key],
    };
  return {
    ...counters,
    due: step.joinedPool ? counters.due + 1 : counters.due,
    lastFoundNew: step.joinedPool,
  };
}

/** A pool child's lineage: its parent's edits and its own, or (a merge) the ancestor's and the merged ones. */
export function childLineage(options: {
  pool: readonly PoolEntry[];
  drawn: Drawn;
  applied: RefinementRecord["edits"];
}): Lineage {
  const { pool, drawn, applied } = options;
  if (drawn.merge) {
    const { j, ancestor } = drawn.merge;
    const ancestors = [...pool[drawn.parentIndex].lineage.ancestors, ...pool[j].lineage.ancestors];
    return {
      edits: [...pool[ancestor].lineage.edits, ...applied],
      ancestors: [...new Set([...ancestors, drawn.parentIndex, j])].sort((a, b) => a - b),
    };
  }
  const parent = pool[drawn.parentIndex].lineage;
  return {
    edits: [...parent.edits, ...applied],
    ancestors: [...parent.ancestors, drawn.parentIndex],
  };
}
