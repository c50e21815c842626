import { describe, expect, it } from "vitest";
import { benchOptionsSchema, defaultMaxIterations } from "./bench-options.js";

describe("benchOptionsSchema", () => {
  it("parses the CLI's raw flag strings", () => {
    const options = benchOptionsSchema.parse({
      worlds: "quickstart, noisy",
      seeds: "1,2,3",
      strategies: "ecdysis,iterative",
      budgets: "15, 5",
      latencyScale: "0.5",
      concurrency: "16",
      probeSize: "30",
      decomposition: "true",
      resume: "true",
      processes: "2",
      outDir: "out",
    });
    expect(options).toEqual({
      worlds: ["quickstart", "noisy"],
      seeds: [1, 2, 3],
      strategies: ["ecdysis", "iterative"],
      budgets: [5, 15],
      latencyScale: 0.5,
      concurrency: 16,
      maxIterations: defaultMaxIterations,
      temperature: 0.7,
      probeSize: 30,
      bootstrapResamples: 2000,
      bootstrapSeed: 1,
      decomposition: true,
      resume: true,
      processes: 2,
      outDir: "out",
    });
  });

  it("defaults to all bundled worlds, ten seeds, two budgets, all strategies and the world's own latency", () => {
    expect(benchOptionsSchema.parse({ outDir: "out" })).toMatchObject({
      worlds: [],
      seeds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      strategies: ["ecdysis", "iterative", "sampling"],
      budgets: [5, 15],
      decomposition: false,
    });
    expect(benchOptionsSchema.parse({ outDir: "out" }).latencyScale).toBeUndefined();
  });

  it("accepts repeated flags as lists", () => {
    const options = benchOptionsSchema.parse({
      worlds: ["a", "b,c"],
      seeds: [4, "5"],
      budgets: [2.5],
      outDir: "o",
    });
    expect(options.worlds).toEqual(["a", "b", "c"]);
    expect(options.seeds).toEqual([4, 5]);
    expect(options.budgets).toEqual([2.5]);
  });

  it("rejects unknown strategies, bad seeds and budgets, and unknown options", () => {
    expect(() => benchOptionsSchema.parse({ strategies: "ecdysis,greedy", outDir: "o" })).toThrow(
      /strateg|greedy|ecdysis/i,
    );
    expect(() => benchOptionsSchema.parse({ seeds: "1,x", outDir: "o" })).toThrow(
      /seeds must be integers/,
    );
    expect(() => benchOptionsSchema.parse({ budgets: "0", outDir: "o" })).toThrow(
      /budgets must be positive numbers/,
    );
    expect(() =>
      benchOptionsSchema.parse({ seeds: "1", outDir: "o", budgetRollouts: 3 }),
    ).toThrow();
    expect(() => benchOptionsSchema.parse({ latencyScale: "-1", outDir: "o" })).toThrow();
  });
});
