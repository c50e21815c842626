import { describe, expect, it } from "vitest";
import { checkClaims } from "./claims.js";
import { computeRatios, ratiosByWorld, summarise } from "./summary.js";
import { benchRun } from "./testing/bench-run.js";
import { timeToMatchPairs } from "./time-to-match.js";
import type { BenchResult, BenchRun, BenchStrategy } from "./types.js";

function run(strategy: BenchStrategy, figures: Partial<BenchRun>): BenchRun {
  return benchRun({ strategy, refinementShare: 0.3, ...figures });
}

function result(runs: BenchRun[]): BenchResult {
  return {
    version: 1,
    date: "2026-01-01T00:00:00.000Z",
    machine: { cpu: "c", cores: 1, node: "v20", platform: "p", memoryGb: 1 },
    settings: {
      strategies: ["ecdysis", "iterative", "sampling"],
      seeds: [1],
      budgetRollouts: 1,
      maxIterations: 1,
      latencyScale: null,
      concurrency: 1,
    },
    worlds: [
      { name: "w", source: "w", parameters: {}, refinerAssumptions: {}, neutralRefiner: false },
    ],
    runs,
    summary: summarise(runs),
    ratios: computeRatios(runs),
    ratiosByWorld: ratiosByWorld(runs),
    timeToMatch: timeToMatchPairs(runs),
  };
}

describe("checkClaims", () => {
  it("passes every claim when Ecdysis is faster, better and clean", () => {
    const checks = checkClaims(
      result([
        run("ecdysis", {
          wallMs: 100,
          heldoutAccuracy: 0.8,
          trajectorySeedAccuracy: 0.4,
          trajectory: [{ iteration: 1, elapsedMs: 50, accuracy: 0.8, tasks: 20 }],
        }),
        run("iterative", {
          wallMs: 200,
          heldoutAccuracy: 0.7,
          trajectorySeedAccuracy: 0.4,
          trajectory: [{ iteration: 3, elapsedMs: 150, accuracy: 0.7, tasks: 20 }],
        }),
        run("sampling", { heldoutAccuracy: 0.6 }),
      ]),
    );
    expect(checks).toHaveLength(10);
    expect(checks[0]).toMatchObject({
      claim: "speedup",
      measured: "3.00× (1 pair(s), 0 not matched, 0 without target)",
    });
    expect(checks.every((check) => check.holds)).toBe(true);
  });

  it("checks speed on time-to-match and shows the total-time ratio beside it", () => {
    // Iterative keeps searching to its budget (long total) but reached its best late;
    // Ecdysis stops early once no systematic pattern is left.
    const checks = checkClaims(
      result([
        run("ecdysis", {
          wallMs: 2000,
          heldoutAccuracy: 0.8,
          trajectorySeedAccuracy: 0.4,
          trajectory: [{ iteration: 1, elapsedMs: 1000, accuracy: 0.8, tasks: 20 }],
        }),
        run("iterative", {
          wallMs: 3000,
          heldoutAccuracy: 0.6,
          trajectorySeedAccuracy: 0.4,
          trajectory: [{ iteration: 5, elapsedMs: 2900, accuracy: 0.6, tasks: 20 }],
        }),
      ]),
    ).filter((check) => check.scope === "all worlds");
    const byClaim = Object.fromEntries(checks.map((check) => [check.claim, check]));
    expect(byClaim.speedup).toMatchObject({
      holds: true,
      measured: expect.stringMatching(/^2\.90×/),
    });
    expect(byClaim["total-time"]).toMatchObject({ holds: false, measured: "1.50×" });
  });

  it("fails the speed claim when Ecdysis never reaches iterative's best, and says where", () => {
    const [speedup] = checkClaims(
      result([
        run("ecdysis", {
          trajectorySeedAccuracy: 0.4,
          trajectory: [{ iteration: 1, elapsedMs: 100, accuracy: 0.5, tasks: 20 }],
        }),
        run("iterative", {
          trajectorySeedAccuracy: 0.4,
          trajectory: [{ iteration: 1, elapsedMs: 900, accuracy: 0.75, tasks: 20 }],
        }),
      ]),
    );
    expect(speedup).toMatchObject({ claim: "speedup", holds: false });
    expect(speedup.measured).toMatch(/^0\.00× \(1 pair\(s\), 1 not matched/);
    expect(speedup.explanation).toMatch(
      /never reached iterative's best train accuracy on w seed 1 \(A\* 75\.0%\)/,
    );
    expect(speedup.explanation).toMatch(/Ecdysis at 0\.10 s, iterative at 0\.90 s\.$/);
  });

  it("has no time-to-match when iterative never improved on the seed harness", () => {
    const [speedup] = checkClaims(
      result([
        run("ecdysis", { trajectorySeedAccuracy: 0.4 }),
        run("iterative", { trajectorySeedAccuracy: 0.4 }),
      ]),
    );
    expect(speedup).toMatchObject({ claim: "speedup", holds: false });
    expect(speedup.measured).toMatch(/^n\/a .*1 without target/);
  });

  it("does not count a fast run that improved nothing as a speed-up", () => {
    const speedup = checkClaims(
      result([
        run("ecdysis", { wallMs: 100, heldoutAccuracy: 0.5, seedHeldoutAccuracy: 0.5 }),
        run("iterative", { wallMs: 300, heldoutAccuracy: 0.5 }),
      ]),
    ).find((check) => check.claim === "total-time")!;
    expect(speedup).toMatchObject({
      claim: "total-time",
      holds: false,
      measured: "3.00× (no held-out gain)",
    });
    expect(speedup.explanation).toMatch(/stopped without improving/);
  });

  it("explains failed claims from the figures", () => {
    const checks = checkClaims(
      result([
        run("ecdysis", {
          wallMs: 300,
          rollouts: 100,
          heldoutAccuracy: 0.6,
          seedHeldoutAccuracy: 0.6,
          accommodations: 1,
          accommodationReasons: ["edit 1: item-hint (names the key phrase 'Ada' of t1)"],
        }),
        run("iterative", { wallMs: 150, rollouts: 120, heldoutAccuracy: 0.7 }),
        run("sampling", { heldoutAccuracy: 0.65 }),
      ]),
    ).filter((check) => check.scope === "w");
    const byClaim = Object.fromEntries(checks.map((check) => [check.claim, check]));
    expect(byClaim["total-time"]).toMatchObject({ holds: false, measured: "0.50×" });
    expect(byClaim["total-time"].explanation).toMatch(
      /stopped after 1\.20× Ecdysis's rollouts.*slower/,
    );
    expect(byClaim["heldout-vs-iterative"]).toMatchObject({ holds: false, measured: "-10.0 pp" });
    expect(byClaim["heldout-vs-sampling"].explanation).toMatch(
      /\(-5\.0 pp\)\. Ecdysis accepted no edit/,
    );
    expect(byClaim["no-accommodations"]).toMatchObject({ holds: false, measured: "1" });
    expect(byClaim["no-accommodations"].explanation).toContain("w seed 1: edit 1: item-hint");
  });
});
