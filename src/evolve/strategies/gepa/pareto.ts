import type { Rng } from "../../rng.js";

// GEPA's Pareto candidate selection over per-instance validation scores (src/gepa/gepa_utils.py:
// remove_dominated_programs, select_program_candidate_from_pareto_front; core/state.py: the
// instance front; strategies/candidate_selector.py: ParetoCandidateSelector) and its best
// candidate (strategies/eval_policy.py, FullEvaluationPolicy.get_best_program).

/** A candidate's scores on the validation tasks (task id → score in [0, 1]). */
export type InstanceScores = ReadonlyMap<string, number>;

/** Mean score over a candidate's validation tasks (−∞ when it has none, as GEPA's policy). */
export function averageScore(scores: InstanceScores): number {
  if (scores.size === 0) return Number.NEGATIVE_INFINITY;
  let sum = 0;
  for (const score of scores.values()) sum += score;
  return sum / scores.size;
}

/** The index of the best candidate: the highest average, the earliest among equals. */
export function bestCandidate(pool: readonly InstanceScores[]): number {
  let best = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  let bestCoverage = -1;
  pool.forEach((scores, index) => {
    const average = averageScore(scores);
    if (average > bestScore || (average === bestScore && scores.size > bestCoverage)) {
      best = index;
      bestScore = average;
      bestCoverage = scores.size;
    }
  });
  return best;
}

/** Per validation task, the candidates with the highest score on it (ties all kept). */
export function instanceFront(pool: readonly InstanceScores[]): Map<string, Set<number>> {
  const top = new Map<string, number>();
  const front = new Map<string, Set<number>>();
  pool.forEach((scores, index) => {
    for (const [taskId, score] of scores) {
      const previous = top.get(taskId) ?? Number.NEGATIVE_INFINITY;
      if (score > previous) {
        top.set(taskId, score);
        front.set(taskId, new Set([index]));
      } else if (score === previous) front.get(taskId)?.add(index);
    }
  });
  return front;
}

/** Whether every front holding `candidate` also holds one of `others`. */
function dominated(
  candidate: number,
  others: ReadonlySet<number>,
  front: ReadonlyMap<string, ReadonlySet<number>>,
): boolean {
  for (const members of front.values()) {
    if (!members.has(candidate)) continue;
    if (![...members].some((other) => others.has(other))) return false;
  }
  return true;
}

/**
 * The front without dominated candidates: lowest average first, a candidate is dropped when
 * every task it leads on is also led by a surviving other one; repeated until none is dropped.
 */
export function withoutDominated(
  front: ReadonlyMap<string, ReadonlySet<number>>,
  averages: readonly number[],
): Map<string, Set<number>> {
  const onFront = [...new Set([...front.values()].flatMap((members) => [...members]))];
  const order = onFront.sort((a, b) => averages[a] - averages[b] || a - b);
  const removed = new Set<number>();
  for (let found = true; found; ) {
    found = false;
    for (const candidate of order) {
      if (removed.has(candidate)) continue;
      const others = new Set(order.filter((other) => other !== candidate && !removed.has(other)));
      if (dominated(candidate, others, front)) {
        removed.add(candidate);
        found = true;
        break;
      }
    }
  }
  return new Map(
    [...front].map(([taskId, members]) => [
      taskId,
      new Set([...members].filter((member) => !removed.has(member))),
    ]),
  );
}

/**
 * GEPA's parent selection: among the non-dominated candidates of the instance front, one drawn
 * with probability proportional to the number of validation tasks it leads on.
 */
export function selectParent(pool: readonly InstanceScores[], rng: Rng): number {
  if (pool.length === 0) throw new Error("pareto selection: the candidate pool is empty");
  const averages = pool.map(averageScore);
  const front = withoutDominated(instanceFront(pool), averages);
  const frequency = new Map<number, number>();
  for (const members of front.values())
    for (const member of members) frequency.set(member, (frequency.get(member) ?? 0) + 1);
  const weighted = [...frequency].sort(([a], [b]) => a - b);
  const total = weighted.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return bestCandidate(pool);
  let draw = Math.floor(rng.next() * total);
  for (const [candidate, count] of weighted) {
    if (draw < count) return candidate;
    draw -= count;
  }
  return weighted[weighted.length - 1][0];
}
