import { describe, expect, it } from "vitest";
import {
  accuracyAt,
  bestAccuracy,
  firstReach,
  matchTarget,
  meanAccuracy,
  pairFigures,
} from "./heldout-trajectory.js";
import { benchRun, probe } from "./testing/bench-run.js";

describe("the held-out probe trajectory", () => {
  const run = probe([
    [0, 0.4],
    [1000, 0.6],
    [3000, 0.8],
  ]);

  it("is a step function of training time", () => {
    expect(accuracyAt(run, 0)).toBe(0.4);
    expect(accuracyAt(run, 999)).toBe(0.4);
    expect(accuracyAt(run, 1000)).toBe(0.6);
    expect(accuracyAt(run, 10_000)).toBe(0.8);
    expect(firstReach(run, 0.6)).toBe(1000);
    expect(firstReach(run, 0.7)).toBe(3000);
    expect(firstReach(run, 0.9)).toBeNull();
    expect(bestAccuracy(run)).toBe(0.8);
  });

  it("averages accuracy over a horizon, the last harness staying in force", () => {
    // 0–1 s at 0.4, 1–3 s at 0.6, 3–4 s at 0.8 → (0.4 + 1.2 + 0.8) / 4.
    expect(meanAccuracy(run, 4000)).toBeCloseTo(0.6, 9);
    expect(meanAccuracy(run, 2000)).toBeCloseTo(0.5, 9);
  });
});

describe("matchTarget", () => {
  const left = probe([
    [0, 0.4],
    [500, 0.7],
    [900, 0.9],
  ]);
  const right = probe([
    [0, 0.4],
    [2000, 0.7],
  ]);

  it("times left reaching right's best (ratio right / left)", () => {
    expect(matchTarget({ left, right, owner: "right" })).toEqual({
      target: 0.7,
      leftMs: 500,
      rightMs: 2000,
      ratio: 4,
      status: "matched",
    });
  });

  it("counts left never reaching right's best as 0×, and right never reaching left's as undefined", () => {
    expect(matchTarget({ left: right, right: left, owner: "right" })).toMatchObject({
      status: "not-reached",
      ratio: 0,
    });
    expect(matchTarget({ left, right, owner: "left" })).toMatchObject({
      target: 0.9,
      leftMs: 900,
      rightMs: null,
      status: "not-reached",
      ratio: null,
    });
  });

  it("has no target when the best is the seed harness's accuracy", () => {
    const flat = probe([[0, 0.4]]);
    expect(matchTarget({ left, right: flat, owner: "right" })).toMatchObject({
      status: "no-target",
      ratio: null,
    });
  });
});

describe("pairFigures", () => {
  it("compares two training runs on the same probe tasks", () => {
    const left = benchRun({
      strategy: "ecdysis",
      wallMs: 1000,
      rollouts: 200,
      heldoutAccuracy: 0.9,
      probe: probe([
        [0, 0.4],
        [500, 0.9],
      ]),
    });
    const right = benchRun({
      strategy: "iterative",
      wallMs: 2000,
      rollouts: 500,
      heldoutAccuracy: 0.7,
      probe: probe([
        [0, 0.4],
        [1500, 0.7],
      ]),
    });
    const figures = pairFigures({ left, right });
    expect(figures.timeToMatch).toMatchObject({ status: "matched", ratio: 3 });
    expect(figures.reverse).toMatchObject({ status: "not-reached", ratio: null });
    expect(figures.wallRatio).toBe(2);
    expect(figures.rolloutsRatio).toBe(2.5);
    expect(figures.heldoutDiff).toBeCloseTo(0.2, 9);
    // Horizon 2 s: left 0.25·0.4 + 0.75·0.9 = 0.775; right 0.75·0.4 + 0.25·0.7 = 0.475.
    expect(figures.aucDiff).toBeCloseTo(0.3, 9);
  });

  it("compares an arm without training only on held-out accuracy", () => {
    const figures = pairFigures({
      left: benchRun({ strategy: "ecdysis", heldoutAccuracy: 0.8 }),
      right: benchRun({ strategy: "sampling", heldoutAccuracy: 0.5 }),
    });
    expect(figures).toMatchObject({ timeToMatch: null, aucDiff: null, wallRatio: null });
    expect(figures.heldoutDiff).toBeCloseTo(0.3, 9);
  });
});
