import type { PlannedEdit } from "../../../harness/types.js";
import { type Rng, shuffled } from "../../rng.js";
import { averageScore, type InstanceScores, instanceFront, withoutDominated } from "./pareto.js";

// GEPA's merge proposer (gepa-ai/gepa `proposer/merge.py`, `gepa_utils.py`
// `find_dominator_programs`): two non-dominated candidates that share an ancestor, each of which
// changed some component the other left as the ancestor had it, are combined component by
// component — the changed side's version where only one changed, the better candidate's where
// both did. Here a component is a harness module, and a candidate is its ancestor plus the edits
// along its lineage, so a merge is the ancestor plus the chosen modules' edits, through the guards.

/** A pool candidate's lineage: every edit from the seed to it, and the pool indices it descends from. */
export interface Lineage {
  edits: PlannedEdit[];
  ancestors: number[];
}

/** A merge to try: candidates `i` and `j`, their common ancestor, and the edits to apply to it. */
export interface MergePlan {
  i: number;
  j: number;
  ancestor: number;
  edits: PlannedEdit[];
  /** `i-j-ancestor`: GEPA does not try a triplet twice. */
  key: string;
}

function editKey(edit: PlannedEdit): string {
  return JSON.stringify(edit);
}

/** The edits from `ancestor` to `descendant`, or undefined when its lineage does not extend the ancestor's. */
function editsSince(ancestor: Lineage, descendant: Lineage): PlannedEdit[] | undefined {
  const prefix = ancestor.edits;
  if (descendant.edits.length < prefix.length) return undefined;
  for (let k = 0; k < prefix.length; k++)
    if (editKey(prefix[k]) !== editKey(descendant.edits[k])) return undefined;
  return descendant.edits.slice(prefix.length);
}

/** The modules a list of edits touches. */
function modulesOf(edits: readonly PlannedEdit[]): Set<string> {
  return new Set(edits.map((edit) => edit.module));
}

/**
 * The merged edits for a triplet, or undefined when it has no desirable component (GEPA's
 * `does_triplet_have_desirable_predictors`: one side changed a module the other did not).
 */
export function mergedEdits(options: {
  ancestor: Lineage;
  i: Lineage;
  j: Lineage;
  /** Whether `i` scores at least as high as `j` (the side kept where both changed a module). */
  iBetter: boolean;
}): PlannedEdit[] | undefined {
  const fromI = editsSince(options.ancestor, options.i);
  const fromJ = editsSince(options.ancestor, options.j);
  if (!fromI || !fromJ || fromI.length === 0 || fromJ.length === 0) return undefined;
  const inI = modulesOf(fromI);
  const inJ = modulesOf(fromJ);
  const onlyI = [...inI].filter((module) => !inJ.has(module));
  const onlyJ = [...inJ].filter((module) => !inI.has(module));
  if (onlyI.length === 0 && onlyJ.length === 0) return undefined;
  const fromBetter = options.iBetter ? fromI : fromJ;
  const fromOther = options.iBetter ? fromJ : fromI;
  const otherOnly = new Set(options.iBetter ? onlyJ : onlyI);
  return [...fromBetter, ...fromOther.filter((edit) => otherOnly.has(edit.module))];
}

/** The non-dominated candidates of the pool (GEPA's `find_dominator_programs`). */
export function dominators(pool: readonly InstanceScores[]): number[] {
  const front = withoutDominated(instanceFront(pool), pool.map(averageScore));
  return [...new Set([...front.values()].flatMap((members) => [...members]))].sort((a, b) => a - b);
}

/**
 * GEPA's `find_common_ancestor_pair` and merge construction: up to `attempts` draws of two
 * non-dominated candidates, neither descending from the other, with a common ancestor scoring no
 * higher than either (drawn in proportion to its score) and a desirable component; a triplet
 * already tried is skipped.
 */
export function planMerge(options: {
  scores: readonly InstanceScores[];
  lineages: readonly Lineage[];
  tried: ReadonlySet<string>;
  rng: Rng;
  attempts?: number;
}): MergePlan | undefined {
  const { scores, lineages, tried, rng } = options;
  const candidates = dominators(scores);
  if (candidates.length < 2) return undefined;
  const averages = scores.map(averageScore);
  for (let attempt = 0; attempt < (options.attempts ?? 10); attempt++) {
    const [i, j] = drawPair(candidates, rng);
    if (lineages[i].ancestors.includes(j) || lineages[j].ancestors.includes(i)) continue;
    const common = lineages[i].ancestors.filter(
      (a) =>
        lineages[j].ancestors.includes(a) &&
        averages[a] <= averages[i] &&
        averages[a] <= averages[j] &&
        !tried.has(`${i}-${j}-${a}`),
    );
    const ancestor = drawWeighted(common, averages, rng);
    if (ancestor === undefined) continue;
    const edits = mergedEdits({
      ancestor: lineages[ancestor],
      i: lineages[i],
      j: lineages[j],
      iBetter: averages[i] >= averages[j],
    });
    if (edits) return { i, j, ancestor, edits, key: `${i}-${j}-${ancestor}` };
  }
  return undefined;
}

/** Two distinct members, the smaller index first. */
function drawPair(members: readonly number[], rng: Rng): [number, number] {
  const first = Math.floor(rng.next() * members.length);
  let second = Math.floor(rng.next() * (members.length - 1));
  if (second >= first) second += 1;
  const [a, b] = [members[first], members[second]];
  return a < b ? [a, b] : [b, a];
}

/** One member drawn in proportion to its score (uniformly when every score is 0). */
function drawWeighted(
  members: readonly number[],
  weights: readonly number[],
  rng: Rng,
): number | undefined {
  if (members.length === 0) return undefined;
  const total = members.reduce((sum, member) => sum + weights[member], 0);
  if (total <= 0) return members[Math.floor(rng.next() * members.length)];
  let draw = rng.next() * total;
  for (const member of members) {
    draw -= weights[member];
    if (draw < 0) return member;
  }
  return members[members.length - 1];
}

/**
 * GEPA's `select_eval_subsample_for_merged_program`: up to `size` task ids, taken in turn from
 * those where `i` scores higher, where `j` does, and where they tie, each group shuffled.
 */
export function mergeSubsample(options: {
  i: InstanceScores;
  j: InstanceScores;
  rng: Rng;
  size?: number;
}): string[] {
  const size = options.size ?? 5;
  const ids = [...options.i.keys()].filter((id) => options.j.has(id));
  const score = (scores: InstanceScores, id: string) => scores.get(id) ?? 0;
  const groups = [
    ids.filter((id) => score(options.i, id) > score(options.j, id)),
    ids.filter((id) => score(options.j, id) > score(options.i, id)),
    ids.filter((id) => score(options.i, id) === score(options.j, id)),
  ].map((group) => shuffled(group, options.rng));
  const chosen: string[] = [];
  for (let round = 0; chosen.length < Math.min(size, ids.length); round++)
    for (const group of groups)
      if (round < group.length && chosen.length < size) chosen.push(group[round]);
  return chosen;
}
