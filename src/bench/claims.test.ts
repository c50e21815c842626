import { describe, expect, it } from "vitest";
import { type ClaimCheck, checkClaims, verdictOf } from "./claims.js";
import { computeComparisons } from "./comparisons.js";
import { spentFairly } from "./conduct-claims.js";
import { summariseArms } from "./summary.js";
import { benchRun, probe } from "./testing/bench-run.js";
import type { BenchResult, BenchRun, BenchStrategy } from "./types.js";

function run(strategy: BenchStrategy, seed: number, figures: Partial<BenchRun>): BenchRun {
  return benchRun({ strategy, seed, refinementShare: 0.3, ...figures });
}

function result(runs: BenchRun[]): BenchResult {
  return {
    version: 2,
    date: "2026-01-01T00:00:00.000Z",
    machine: { cpu: "c", cores: 1, node: "v20", platform: "p", memoryGb: 1 },
    settings: {
      strategies: ["ecdysis", "iterative", "sampling"],
      seeds: [1, 2, 3],
      budgets: [10],
      latencyScale: null,
      concurrency: 1,
      maxIterations: 1000,
      temperature: 0.7,
      probeSize: 40,
      bootstrap: { resamples: 300, seed: 1 },
      decomposition: false,
    },
    worlds: [
      { name: "w", source: "w", parameters: {}, refinerAssumptions: {}, neutralRefiner: false },
    ],
    runs,
    arms: summariseArms(runs),
    comparisons: computeComparisons(runs, { resamples: 300, seed: 1 }),
    benchWallMs: 1,
  };
}

const byClaim = (checks: ClaimCheck[]) =>
  Object.fromEntries(
    checks.filter((check) => check.scope === "all worlds").map((check) => [check.claim, check]),
  );

describe("verdictOf", () => {
  it("says yes only when the whole interval clears the bar", () => {
    expect(verdictOf({ median: 2, low: 1.9, high: 2.5, n: 10 }, 1.84)).toBe("yes");
    expect(verdictOf({ median: 2, low: 1.2, high: 2.5, n: 10 }, 1.84)).toBe("inconclusive");
    expect(verdictOf({ median: 1.5, low: 1.2, high: 2.5, n: 10 }, 1.84)).toBe("no");
    expect(verdictOf({ median: 0, low: 0, high: 0, n: 10 }, 0)).toBe("yes");
    expect(verdictOf({ median: 0, low: 0, high: 0, n: 10 }, 0, true)).toBe("no");
  });
});

describe("checkClaims", () => {
  it("passes every claim when Ecdysis is consistently faster, better, clean and the baseline was fair", () => {
    const runs = [1, 2, 3].flatMap((seed) => [
      run("ecdysis", seed, {
        wallMs: 100,
        heldoutAccuracy: 0.8,
        probe: probe([
          [0, 0.4],
          [50, 0.8],
        ]),
      }),
      run("iterative", seed, {
        wallMs: 400,
        rollouts: 400,
        heldoutAccuracy: 0.7,
        probe: probe([
          [0, 0.4],
          [300, 0.7],
        ]),
      }),
      run("sampling", seed, { heldoutAccuracy: 0.6 }),
    ]);
    const checks = checkClaims(result(runs));
    expect(checks.filter((check) => check.verdict !== "yes")).toEqual([]);
    expect(byClaim(checks).speedup.measured).toMatch(
      /^6\.00× \[6\.00×, 6\.00×\] \(3 pairs, 0 not reached/,
    );
  });

  it("calls a speed-up inconclusive when its interval reaches below the bar", () => {
    const times = [100, 100, 300, 100, 250, 120];
    const runs = times.flatMap((ecdysisMs, index) => [
      run("ecdysis", index, {
        probe: probe([
          [0, 0.4],
          [ecdysisMs, 0.8],
        ]),
      }),
      run("iterative", index, {
        probe: probe([
          [0, 0.4],
          [400, 0.7],
        ]),
      }),
    ]);
    const speed = byClaim(checkClaims(result(runs))).speedup;
    expect(speed.verdict).toBe("inconclusive");
    expect(speed.explanation).toMatch(/Median held-out time-to-match 3\.67× \[/);
  });

  it("counts a pair where Ecdysis never reaches the baseline's best held-out accuracy as 0×", () => {
    const checks = checkClaims(
      result([
        run("ecdysis", 1, {
          probe: probe([
            [0, 0.4],
            [100, 0.5],
          ]),
        }),
        run("iterative", 1, {
          probe: probe([
            [0, 0.4],
            [900, 0.75],
          ]),
        }),
      ]),
    );
    const speed = byClaim(checks).speedup;
    expect(speed).toMatchObject({ verdict: "no" });
    expect(speed.measured).toMatch(/^0\.00× .*1 not reached/);
    expect(speed.explanation).toMatch(
      /never reached the baseline's best held-out accuracy on w seed 1/,
    );
    expect(speed.explanation).toMatch(/Ecdysis at 0\.10 s, iterative at 0\.90 s\.$/);
  });

  it("has nothing to match when the baseline never improved on the seed harness", () => {
    const speed = byClaim(
      checkClaims(result([run("ecdysis", 1, {}), run("iterative", 1, {})])),
    ).speedup;
    expect(speed).toMatchObject({ verdict: "no" });
    expect(speed.measured).toMatch(/^n\/a .*1 without target/);
  });

  it("fails the fairness check when the baseline stopped with budget left", () => {
    const checks = byClaim(
      checkClaims(
        result([
          run("ecdysis", 1, {}),
          run("iterative", 1, {
            rollouts: 100,
            budgetRollouts: 400,
            unspentRollouts: 300,
            stoppedBy: "max-iterations",
          }),
          run("iterative", 2, {
            rollouts: 20,
            budgetRollouts: 400,
            unspentRollouts: 380,
            stoppedBy: "no-failures",
          }),
        ]),
      ),
    );
    expect(checks["fair-baseline"]).toMatchObject({
      verdict: "no",
      measured: "1 of 2 runs (median 15% of budget spent)",
    });
    expect(checks["fair-baseline"].explanation).toContain(
      "w seed 1 (max-iterations, 300 of 400 unspent)",
    );
    expect(spentFairly(run("iterative", 1, { rollouts: 320, budgetRollouts: 400 }))).toBe(true);
    // Stopped because its reflections gave nothing new to evaluate: fair, and counted apart.
    const exhausted = run("iterative", 3, {
      rollouts: 120,
      budgetRollouts: 400,
      unspentRollouts: 280,
      stoppedBy: "attempts-exhausted",
    });
    expect(spentFairly(exhausted)).toBe(true);
    const withExhausted = byClaim(
      checkClaims(result([run("ecdysis", 1, {}), run("iterative", 1, {}), exhausted])),
    );
    expect(withExhausted["fair-baseline"].measured).toMatch(/stopped with nothing new to evaluate/);
  });

  it("explains accommodations and a held-out loss", () => {
    const checks = byClaim(
      checkClaims(
        result([
          run("ecdysis", 1, {
            heldoutAccuracy: 0.6,
            accommodations: 1,
            accommodationReasons: ["edit 1: item-hint (names the key phrase 'Ada' of t1)"],
          }),
          run("iterative", 1, { heldoutAccuracy: 0.7 }),
          run("sampling", 1, { heldoutAccuracy: 0.65 }),
        ]),
      ),
    );
    expect(checks["heldout-vs-iterative"]).toMatchObject({
      verdict: "no",
      measured: "-10.0 pp [-10.0 pp, -10.0 pp]",
    });
    expect(checks["heldout-vs-sampling"]).toMatchObject({ verdict: "no" });
    expect(checks["no-accommodations"]).toMatchObject({ verdict: "no", measured: "1 in 1 runs" });
    expect(checks["no-accommodations"].explanation).toContain("w seed 1: edit 1: item-hint");
  });

  it("checks the time-to-match counted in training rollouts against 1.5×, with LLM calls beside it", () => {
    // Steps are [ms, accuracy, rollouts, LLM calls]. A* = 0.7. Iterative first reaches it at
    // 400 ms, 300 rollouts, 400 calls; Ecdysis at 100 ms and, per seed, 100 / 150 / 300 rollouts
    // with 200 calls: wall 4× every seed; rollouts 3×, 2×, 1× (median 2×; a resample can draw
    // the 1× seed twice, so the interval reaches below 1.5×); calls 2× every seed.
    const runs = [100, 150, 300].flatMap((rollouts, seed) => [
      run("ecdysis", seed, {
        probe: probe([
          [0, 0.4, 0, 0],
          [100, 0.8, rollouts, 200],
        ]),
      }),
      run("iterative", seed, {
        probe: probe([
          [0, 0.4, 40, 50],
          [400, 0.7, 300, 400],
        ]),
      }),
    ]);
    const checks = byClaim(checkClaims(result(runs)));
    expect(checks.speedup.verdict).toBe("yes");
    const rollouts = checks["speedup-rollouts"];
    expect(rollouts.verdict).toBe("inconclusive");
    expect(rollouts.measured).toMatch(
      /^2\.00× \[1\.00×, 3\.00×\] \(3 pairs; in LLM calls 2\.00× \[2\.00×, 2\.00×\]\)$/,
    );
    expect(rollouts.explanation).toMatch(/^In wall time 4\.00× \[4\.00×, 4\.00×\]; 0 pairs/);
    // Every seed at 1× in rollouts (Ecdysis spent as much as the baseline to get there): no.
    const even = runs.map((item) =>
      item.strategy === "ecdysis"
        ? {
            ...item,
            probe: probe([
              [0, 0.4, 0, 0],
              [100, 0.8, 300, 400],
            ]),
          }
        : item,
    );
    expect(byClaim(checkClaims(result(even)))["speedup-rollouts"]).toMatchObject({
      verdict: "no",
      measured: "1.00× [1.00×, 1.00×] (3 pairs; in LLM calls 1.00× [1.00×, 1.00×])",
    });
  });

  it("makes no rollouts claim when the runs recorded no spend (an older bench.json)", () => {
    const checks = byClaim(
      checkClaims(
        result([
          run("ecdysis", 1, {
            probe: probe([
              [0, 0.4],
              [100, 0.8],
            ]),
          }),
          run("iterative", 1, {
            probe: probe([
              [0, 0.4],
              [400, 0.7],
            ]),
          }),
        ]),
      ),
    );
    expect(checks.speedup.verdict).toBe("yes");
    expect(checks["speedup-rollouts"]).toBeUndefined();
  });
});
