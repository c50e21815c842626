import { describe, expect, it } from "vitest";
import { createRng } from "../../rng.js";
import {
  averageScore,
  bestCandidate,
  type InstanceScores,
  instanceFront,
  selectParent,
  withoutDominated,
} from "./pareto.js";

const scores = (entries: Record<string, number>): InstanceScores =>
  new Map(Object.entries(entries));

describe("Pareto candidate selection (GEPA's ParetoCandidateSelector)", () => {
  // 0: seed, passes t1; 1: passes t1, t2; 2: passes t3 only; 3: exactly 1's scores.
  const pool = [
    scores({ t1: 1, t2: 0, t3: 0, t4: 0 }),
    scores({ t1: 1, t2: 1, t3: 0, t4: 0 }),
    scores({ t1: 0, t2: 0, t3: 1, t4: 0 }),
    scores({ t1: 1, t2: 1, t3: 0, t4: 0 }),
  ];

  it("the front per task keeps every candidate tied at the top, those nobody solves included", () => {
    const front = instanceFront(pool);
    expect(front.get("t1")).toEqual(new Set([0, 1, 3]));
    expect(front.get("t3")).toEqual(new Set([2]));
    expect(front.get("t4")).toEqual(new Set([0, 1, 2, 3]));
  });

  it("drops dominated candidates: the seed, and one of two equal ones", () => {
    const cleaned = withoutDominated(instanceFront(pool), pool.map(averageScore));
    const survivors = new Set([...cleaned.values()].flatMap((members) => [...members]));
    expect(survivors.has(0)).toBe(false);
    expect(survivors.has(2)).toBe(true);
    expect([survivors.has(1), survivors.has(3)].filter(Boolean)).toHaveLength(1);
    for (const members of cleaned.values()) expect(members.size).toBeGreaterThan(0);
  });

  it("draws parents in proportion to the tasks they lead on, never a dominated one", () => {
    const rng = createRng(3);
    const counts = new Map<number, number>();
    for (let draw = 0; draw < 2000; draw++) {
      const parent = selectParent(pool, rng);
      counts.set(parent, (counts.get(parent) ?? 0) + 1);
    }
    expect(counts.get(0)).toBeUndefined();
    // The survivor of {1, 3} leads on t1, t2, t4 (3 fronts); 2 on t3, t4 (2 fronts).
    const pair = (counts.get(1) ?? 0) + (counts.get(3) ?? 0);
    expect(pair / 2000).toBeGreaterThan(0.54);
    expect(pair / 2000).toBeLessThan(0.66);
  });

  it("the best candidate is the highest average, the earliest of equals", () => {
    expect(bestCandidate(pool)).toBe(1);
    expect(bestCandidate([scores({ t1: 0 })])).toBe(0);
    expect(averageScore(new Map())).toBe(Number.NEGATIVE_INFINITY);
  });
});
