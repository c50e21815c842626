import { describe, expect, it } from "vitest";
import type { EvolveResult } from "../evolve/result-schema.js";
import { describeEdit } from "./accepted-changes.js";
import { compareRuns } from "./run-comparison.js";

function result(
  heldout: { accuracy: number; interval: [number, number] },
  configHash = "c",
): EvolveResult {
  const score = { accuracy: 0.5, n: 40, interval: [0.35, 0.65] as [number, number] };
  return {
    version: 1,
    strategy: "ecdysis",
    seed: 1,
    configHash,
    model: "m",
    stoppedBy: "max-iterations",
    baseline: { train: score, heldout: score },
    final: { train: score, heldout: { ...heldout, n: 40 } },
    iterations: [],
    acceptedEdits: [],
    rejectedProposals: [],
    cost: {
      rollouts: 1,
      llmCalls: 1,
      promptTokens: 1,
      completionTokens: 1,
      costUsd: 0,
      wallMs: 1,
      refinementShare: 0,
      refinement: { llmCalls: 0, tokens: 0, costUsd: 0 },
    },
    harness: { seedHash: "s", finalHash: "f", changedFiles: [], patch: "" },
    gate: { passed: true, reason: "", comparison: { pValue: 0.01 } },
  } as unknown as EvolveResult;
}

describe("compareRuns", () => {
  it("warns that a held-out difference within overlapping intervals may be noise", () => {
    const close = compareRuns(
      result({ accuracy: 0.8, interval: [0.65, 0.9] }),
      result({ accuracy: 0.85, interval: [0.7, 0.93] }),
    );
    expect(close.notes.join("\n")).toContain("intervals overlap: the difference may be noise");
    const apart = compareRuns(
      result({ accuracy: 0.3, interval: [0.18, 0.45] }),
      result({ accuracy: 0.9, interval: [0.77, 0.96] }),
    );
    expect(apart.notes).toEqual([]);
  });

  it("says when the runs used different configs", () => {
    const other = compareRuns(
      result({ accuracy: 0.5, interval: [0.35, 0.65] }),
      result({ accuracy: 0.5, interval: [0.35, 0.65] }, "other"),
    );
    expect(other.notes).toEqual(["the runs used different configs (config hash differs)"]);
    expect(other.rows.find((row) => row.label === "version")?.a).toBe("(not recorded)");
  });
});

describe("describeEdit", () => {
  it("says what a replaced passage becomes, clipped", () => {
    const text = describeEdit({
      kind: "replace_text",
      file: "system.md",
      find: "You are a helpful assistant. Solve the user's task.",
      replace:
        "You are a helpful assistant. If a tool call fails, fix the arguments and call it again.",
    });
    expect(text).toBe(
      'edit system.md: "Solve the user\'s task" → "If a tool call fails, fix the arguments and call it again"',
    );
    const appended = describeEdit({
      kind: "replace_text",
      file: "system.md",
      find: "Use the tools.",
      replace: "Use the tools. Retry a failed call.",
    });
    expect(appended).toBe('edit system.md: insert " Retry a failed call."');
    expect(describeEdit({ kind: "set", path: "tools.calculator.enabled", value: true })).toBe(
      "set tools.calculator.enabled = true",
    );
  });
});
