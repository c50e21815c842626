import { describe, expect, it } from "vitest";
import {
  ablationRetry,
  decide,
  deterministicAgent,
  fixedOwnTargets,
  helpsAlone,
  notRedrawnDecision,
  promising,
  significant,
  significantOverDraws,
  worseWithout,
} from "./acceptance.js";
import { comparePaired, type PairedComparison } from "./paired-test.js";
import type { ValidationStage } from "./validation.js";

/** A comparison with `fixed` tasks fixed and `broken` broken (and nothing else). */
function flips(fixed: number, broken: number): PairedComparison {
  const ids = [...Array(fixed + broken).keys()].map((index) => `t${index}`);
  return comparePaired(
    new Map(ids.map((id, index) => [id, index >= fixed])),
    new Map(ids.map((id, index) => [id, index < fixed])),
  );
}

const score = { accuracy: 0.9, n: 10, interval: [0.6, 0.98] as [number, number] };

function full(comparison: PairedComparison, alpha = 0.1, hash = "c1"): ValidationStage {
  return {
    step: "full batch",
    role: "verdict",
    candidateHash: hash,
    comparison,
    score,
    decision: significant(alpha)(comparison),
  };
}

describe("acceptance criteria", () => {
  it("promising: worth the full batch only when it fixes more than it breaks", () => {
    expect(promising(flips(2, 1))).toEqual({
      accepted: true,
      reason: "cheap validation: fixed 2 > broken 1",
    });
    expect(promising(flips(1, 1))).toEqual({
      accepted: false,
      reason: "cheap validation: fixed 1 ≤ broken 1",
    });
  });

  it("significant(alpha): fixed > broken and the one-sided McNemar p below alpha", () => {
    expect(significant(0.1)(flips(5, 0))).toEqual({
      accepted: true,
      reason: "fixed 5, broken 0, p = 0.0313, below alpha 0.1",
    });
    expect(significant(0.1)(flips(3, 0))).toEqual({
      accepted: false,
      reason: "full batch: fixed 3, broken 0, one-sided McNemar p = 0.1250 (needs < 0.1)",
    });
    expect(significant(0.99)(flips(6, 6))).toEqual({
      accepted: false,
      reason: "full batch: fixed 6, broken 6",
    });
  });

  it("significantOverDraws: the flips re-drawn and counted draw by draw", () => {
    const held = { pairs: 9, repeats: 0, fixed: 9, broken: 0, pValue: 1 / 512 };
    expect(significantOverDraws(0.1)(flips(3, 0), held)).toEqual({
      accepted: true,
      reason:
        "fixed 3, broken 0; over 9 draws of the flipped tasks: fixed 9, broken 0, p = 0.0020, below alpha 0.1",
    });
    const flaky = { pairs: 9, repeats: 0, fixed: 4, broken: 3, pValue: 0.5 };
    expect(significantOverDraws(0.1)(flips(3, 0), flaky).accepted).toBe(false);
    const repeated = { pairs: 9, repeats: 6, fixed: 3, broken: 0, pValue: 0.125 };
    expect(significantOverDraws(0.1)(flips(3, 0), repeated)).toEqual({
      accepted: false,
      reason:
        "full batch: fixed 3, broken 0; over 9 draws of the flipped tasks (6 identical repeat(s) counted once): fixed 3, broken 0, p = 0.1250 (needs < 0.1)",
    });
  });

  it("deterministicAgent: a built-in harness at temperature 0 is not re-drawn; the per-task test decides", () => {
    const why = deterministicAgent({ model: { temperature: 0 }, harness: { kind: "builtin" } });
    expect(why).toMatch(/temperature 0/);
    expect(deterministicAgent({ model: { temperature: 0.7 }, harness: { kind: "builtin" } })).toBe(
      undefined,
    );
    // A command harness runs its own model: its temperature is not ours to know.
    expect(deterministicAgent({ model: { temperature: 0 }, harness: { kind: "command" } })).toBe(
      undefined,
    );
    const perTask = significant(0.1)(flips(2, 0));
    expect(notRedrawnDecision(perTask, why ?? "")).toEqual({
      accepted: false,
      reason: `full batch: fixed 2, broken 0, one-sided McNemar p = 0.2500 (needs < 0.1); not re-drawn: ${why}`,
    });
  });

  it("helpsAlone and fixedOwnTargets", () => {
    expect(helpsAlone({ fixed: 4, broken: 6 })).toEqual({
      accepted: false,
      reason: "alone it fixed 4 and broke 6 of the tasks its bundle flipped",
    });
    expect(fixedOwnTargets({ targets: 4, fixed: 0, patternNames: ["date"] }).reason).toBe(
      "fixed none of the 4 failing member(s) of date in cheap validation, and none fails differently",
    );
    expect(fixedOwnTargets({ targets: 4, fixed: 1, patternNames: ["date"] }).accepted).toBe(true);
    // Masked: none passes yet, but the change acted on them (they fail another way now).
    expect(fixedOwnTargets({ targets: 4, fixed: 0, shifted: 3, patternNames: ["date"] })).toEqual({
      accepted: true,
      reason:
        "fixed none of its 4 target(s) yet, but 3 now fail differently (masked by another failure)",
    });
  });

  it("worseWithout: pruning is undone when the candidate loses net fixes without the pruned changes", () => {
    expect(worseWithout(flips(7, 1), flips(4, 3))).toEqual({
      accepted: true,
      reason: "put back: without them cheap validation fixed 4, broke 3 (with them 7 and 1)",
    });
    expect(worseWithout(flips(4, 0), flips(4, 0)).accepted).toBe(false);
    expect(worseWithout(flips(3, 1), flips(4, 1)).accepted).toBe(false);
  });

  it("ablationRetry: a retry only when some changes help alone and some do not", () => {
    const change = (kept: boolean) => ({ kept });
    expect(ablationRetry([change(true), change(false)])).toEqual({
      accepted: true,
      reason: "without the changes that hurt alone",
    });
    expect(ablationRetry([change(true), change(true)]).accepted).toBe(false);
    expect(ablationRetry([change(false), change(false)]).accepted).toBe(false);
  });
});

describe("decide", () => {
  const cheap: ValidationStage = {
    step: "cheap validation",
    role: "screen",
    candidateHash: "c1",
    comparison: flips(3, 0),
    decision: promising(flips(3, 0)),
  };

  it("accepts on the verdict that accepted, with its candidate and accuracy", () => {
    expect(decide([cheap, full(flips(5, 0))])).toEqual({
      accepted: true,
      reason: "fixed 5, broken 0, p = 0.0313, below alpha 0.1",
      candidateHash: "c1",
      accuracy: 0.9,
    });
  });

  it("rejects with the last deciding stage's reason; nothing validated is a rejection", () => {
    const notPromising: ValidationStage = { ...cheap, decision: promising(flips(1, 2)) };
    expect(decide([notPromising]).reason).toBe("cheap validation: fixed 1 ≤ broken 2");
    expect(decide([]).accepted).toBe(false);
  });

  it("only a verdict accepts: a passed screen or pruning last leaves the proposal rejected", () => {
    expect(decide([cheap])).toEqual({
      accepted: false,
      reason: "cheap validation: fixed 3 > broken 0",
    });
    const pruning: ValidationStage = {
      step: "pruning",
      role: "prune",
      decision: {
        accepted: false,
        reason: "no change fixed any of its own pattern's failing members",
      },
    };
    expect(decide([cheap, pruning]).reason).toBe(
      "no change fixed any of its own pattern's failing members",
    );
  });

  it("a confirmed re-draw accepts the candidate of its full batch", () => {
    const draws = { pairs: 9, repeats: 0, fixed: 9, broken: 0, pValue: 0.002 };
    const verdict = decide([
      cheap,
      full(flips(3, 0)),
      {
        step: "re-drawn flips",
        role: "verdict",
        candidateHash: "c1",
        draws,
        decision: significantOverDraws(0.1)(flips(3, 0), draws),
      },
    ]);
    expect(verdict).toMatchObject({ accepted: true, candidateHash: "c1", accuracy: 0.9 });
  });

  it("after a retry, the rest's verdict — with the bundle's rejection in front when it fails too", () => {
    const ablated: ValidationStage = {
      step: "ablation",
      role: "retry",
      changes: [],
      decision: { accepted: true, reason: "without the changes that hurt alone" },
    };
    const bundle = full(flips(4, 6));
    expect(decide([cheap, bundle, ablated, full(flips(4, 0), 0.1, "c2")])).toMatchObject({
      accepted: true,
      candidateHash: "c2",
    });
    expect(decide([cheap, bundle, ablated, full(flips(2, 1), 0.1, "c2")]).reason).toBe(
      "full batch: fixed 4, broken 6; without the changes that hurt alone: full batch: fixed 2, broken 1, one-sided McNemar p = 0.5000 (needs < 0.1)",
    );
    // Nothing re-validated after the retry: the bundle's rejection stands.
    expect(decide([cheap, bundle, ablated]).reason).toBe("full batch: fixed 4, broken 6");
  });

  it("skips a note (a pruning that was put back)", () => {
    const undone: ValidationStage = {
      step: "pruning",
      role: "note",
      changes: [],
      comparison: flips(1, 3),
      candidateHash: "c4",
      decision: worseWithout(flips(3, 0), flips(1, 3)),
    };
    expect(decide([cheap, undone, full(flips(5, 0))]).accepted).toBe(true);
    expect(decide([cheap, undone]).reason).toBe("cheap validation: fixed 3 > broken 0");
  });
});
