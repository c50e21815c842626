import { describe, expect, it } from "vitest";
import { gateConfigSchema } from "../config/config-schema.js";
import { buildEvalResult, emptyCost } from "../eval/eval-result.js";
import { evolveGate } from "./gate-result.js";

// The held-out gate in words that do not overclaim (issue #24): "better (p = …)" only on
// evidence, "not worse (p = …, not significant)" otherwise; `gate.require` chooses what passes.

/** An evaluation in which exactly the `passing` tasks of `ids` passed. */
const evaluated = (ids: string[], passing: Set<string>) =>
  buildEvalResult({
    split: "heldout",
    harnessHash: "h",
    model: "m",
    cost: emptyCost(),
    tasks: ids.map((taskId) => ({
      taskId,
      category: "c",
      pass: passing.has(taskId),
      passes: passing.has(taskId) ? 1 : 0,
      samples: 1,
      rolloutKeys: [taskId],
    })),
  });

describe("the held-out gate's words", () => {
  const ids = Array.from({ length: 20 }, (_, index) => `t${index}`);
  const seed = evaluated(ids, new Set(ids.slice(0, 8)));
  // 5 fixed, 3 broken: higher accuracy, p = 0.36 — not evidence.
  const noisy = evaluated(ids, new Set([...ids.slice(3, 8), ...ids.slice(8, 13)]));
  // 9 fixed, none broken: p = 0.002.
  const clear = evaluated(ids, new Set(ids.slice(0, 17)));

  it("a higher accuracy without evidence is 'not worse (p = …, not significant)', never 'better'", () => {
    const gate = evolveGate({ baseline: seed, final: noisy, gate: gateConfigSchema.parse({}) });
    expect(gate.reason).toMatch(/^not worse \(p = 0\.\d{4}, not significant\): /);
    expect(gate.evidence).toBe("not-worse");
    // Unset `require`: the evolve gate keeps its bar (a higher accuracy), and says so.
    expect(gate.passed).toBe(true);
  });

  it("a gain the paired test finds is 'better (p = …)'", () => {
    const gate = evolveGate({ baseline: seed, final: clear, gate: gateConfigSchema.parse({}) });
    expect(gate.reason).toMatch(/^better \(p = 0\.00\d\d\): /);
    expect(gate.evidence).toBe("better");
  });

  it("gate.require chooses what passes", () => {
    const better = gateConfigSchema.parse({ require: "better" });
    const notWorse = gateConfigSchema.parse({ require: "not-worse" });
    expect(evolveGate({ baseline: seed, final: noisy, gate: better })).toMatchObject({
      passed: false,
      require: "better",
    });
    expect(evolveGate({ baseline: seed, final: noisy, gate: notWorse }).passed).toBe(true);
    expect(evolveGate({ baseline: seed, final: clear, gate: better }).passed).toBe(true);
    const worse = evaluated(ids, new Set(ids.slice(0, 3)));
    const lost = evolveGate({ baseline: seed, final: worse, gate: notWorse });
    expect(lost.passed).toBe(false);
    expect(lost.reason).toMatch(/^worse \(p = /);
  });
});
