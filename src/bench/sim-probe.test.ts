import { describe, expect, it } from "vitest";
import type { EvolveResult } from "../evolve/index.js";
import { applyEdits, type GuardContext, loadHarness } from "../harness/index.js";
import { fixtureFiles, makeHarnessDir } from "../harness/testing/harness-fixture.js";
import type { PlannedEdit } from "../harness/types.js";
import { rebuildHarnesses } from "./sim-probe.js";

const rule = (text: string): PlannedEdit => ({
  module: "prompt",
  patterns: [],
  rationale: "test",
  edit: { kind: "add_rule", text },
});

const guard: GuardContext = {
  editable: ["**/*"],
  protectedPaths: [],
  forbiddenStrings: [],
  forbiddenInputs: [],
};

describe("rebuildHarnesses (the bench probe's harnesses in force)", () => {
  it("rebuilds an accepted candidate whose parent is a pooled child that was never in force", async () => {
    const seed = await loadHarness({ dir: await makeHarnessDir(fixtureFiles), kind: "builtin" });
    const pooled = applyEdits({
      harness: seed,
      edits: [rule("State the unit of every number.")],
      guard,
    }).harness;
    const best = applyEdits({ harness: pooled, edits: [rule("Check units.")], guard }).harness;
    expect(new Set([seed.hash, pooled.hash, best.hash]).size).toBe(3);
    const result = {
      harness: { seedHash: seed.hash, finalHash: best.hash },
      iterations: [
        // Fully evaluated, not above the best: in the Pareto pool, never in force.
        {
          index: 1,
          parentHash: seed.hash,
          candidateHash: pooled.hash,
          verdict: "rejected",
          applied: [rule("State the unit of every number.")],
          validation: [],
        },
        // A rejected candidate that does not rebuild (a pruned rebuild): skipped, not fatal.
        {
          index: 2,
          parentHash: seed.hash,
          candidateHash: "not-this",
          verdict: "rejected",
          applied: [rule("Other.")],
          validation: [],
        },
        {
          index: 3,
          parentHash: pooled.hash,
          candidateHash: best.hash,
          verdict: "accepted",
          applied: [rule("Check units.")],
          validation: [],
        },
      ],
    } as unknown as EvolveResult;
    const harnesses = await rebuildHarnesses({ seed, result, guard });
    expect(harnesses.get(best.hash)?.hash).toBe(best.hash);
    expect(harnesses.has("not-this")).toBe(false);
    // An accepted step from a harness the record never built is refused, not guessed at.
    const orphan = {
      ...result,
      iterations: [{ ...result.iterations[2], parentHash: "unknown" }],
    } as unknown as EvolveResult;
    await expect(rebuildHarnesses({ seed, result: orphan, guard })).rejects.toThrow(
      /iteration 3 starts from an unknown harness/,
    );
  });
});
