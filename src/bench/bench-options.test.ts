import { describe, expect, it } from "vitest";
import {
  benchOptionsSchema,
  defaultBudgetRollouts,
  defaultMaxIterations,
} from "./bench-options.js";

describe("benchOptionsSchema", () => {
  it("parses the CLI's raw flag strings", () => {
    const options = benchOptionsSchema.parse({
      worlds: "quickstart, noisy",
      seeds: "1,2,3",
      strategies: "ecdysis,iterative",
      budgetRollouts: "400",
      latencyScale: "0.5",
      concurrency: "16",
      outDir: "out",
    });
    expect(options).toEqual({
      worlds: ["quickstart", "noisy"],
      seeds: [1, 2, 3],
      strategies: ["ecdysis", "iterative"],
      budgetRollouts: 400,
      latencyScale: 0.5,
      concurrency: 16,
      maxIterations: defaultMaxIterations,
      outDir: "out",
    });
  });

  it("defaults to all bundled worlds, seeds 1–3, all strategies and the world's own latency", () => {
    expect(benchOptionsSchema.parse({ outDir: "out" })).toEqual({
      worlds: [],
      seeds: [1, 2, 3],
      strategies: ["ecdysis", "iterative", "sampling"],
      budgetRollouts: defaultBudgetRollouts,
      latencyScale: undefined,
      concurrency: 8,
      maxIterations: defaultMaxIterations,
      outDir: "out",
    });
  });

  it("accepts repeated flags as lists", () => {
    const options = benchOptionsSchema.parse({
      worlds: ["a", "b,c"],
      seeds: [4, "5"],
      outDir: "o",
    });
    expect(options.worlds).toEqual(["a", "b", "c"]);
    expect(options.seeds).toEqual([4, 5]);
  });

  it("rejects unknown strategies, non-integer seeds and unknown options", () => {
    expect(() => benchOptionsSchema.parse({ strategies: "ecdysis,greedy", outDir: "o" })).toThrow(
      /strateg|greedy|ecdysis/i,
    );
    expect(() => benchOptionsSchema.parse({ seeds: "1,x", outDir: "o" })).toThrow(
      /seeds must be integers/,
    );
    expect(() => benchOptionsSchema.parse({ seeds: "1", outDir: "o", budget: 3 })).toThrow();
    expect(() => benchOptionsSchema.parse({ latencyScale: "-1", outDir: "o" })).toThrow();
  });
});
