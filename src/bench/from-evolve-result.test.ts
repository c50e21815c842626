import { describe, expect, it } from "vitest";
import type { FailurePattern } from "../diagnose/failure-pattern.js";
import type { Spend } from "../evolve/budget.js";
import type { EvolveResult, IterationRecord } from "../evolve/result-schema.js";
import type { ValidationStage } from "../evolve/validation.js";
import type { PlannedEdit } from "../harness/types.js";
import { toEvolveOutcome } from "./from-evolve-result.js";

const spend = (rollouts: number, refinerTokens: number): Spend => ({
  rollouts,
  llmCalls: rollouts * 2,
  promptTokens: 900,
  completionTokens: 100,
  costUsd: 0,
  refinerCalls: 3,
  refinerTokens,
  refinerCostUsd: 0,
  wallMs: 1234,
});

const score = (accuracy: number) => ({ accuracy, n: 10, interval: [0, 1] as [number, number] });

function pattern(id: string, name: string, taskIds: string[]): FailurePattern {
  return {
    id,
    name,
    description: "",
    module: "prompt",
    namedBy: "fallback",
    groupKeys: [],
    signals: [],
    causes: [],
    kind: "systematic",
    reasons: [],
    support: { tasks: taskIds.length, categories: 1, categoryNames: ["a"] },
    taskIds,
    memberKeys: taskIds,
    examples: [],
  };
}

function planned(patterns: string[]): PlannedEdit {
  return {
    module: "tools",
    patterns,
    rationale: "",
    edit: { kind: "set", path: "tools.calculator.enabled", value: true },
  };
}

function iteration(overrides: Partial<IterationRecord>): IterationRecord {
  return {
    index: 0,
    parentHash: "h",
    batch: { taskIds: [], score: score(0.5) },
    applied: [],
    guardRejections: [],
    validation: [],
    verdict: "accepted",
    reason: "",
    accuracyAfter: 0.6,
    elapsedMs: 0,
    traces: [],
    ...overrides,
  };
}

const trace = (taskId: string, pass: boolean) => ({
  key: taskId,
  taskId,
  category: "a",
  output: "",
  answer: null,
  verdict: { pass, reason: pass ? "pass" : "wrong-answer" },
  events: [],
  steps: [],
});

describe("toEvolveOutcome", () => {
  it("maps accepted edits to the member tasks of the patterns they name", () => {
    const result = {
      baseline: { train: score(0.4), heldout: score(0.3) },
      final: { train: score(0.9), heldout: score(0.8) },
      cost: {
        rollouts: 150,
        llmCalls: 300,
        promptTokens: 9000,
        completionTokens: 1000,
        costUsd: 0,
        wallMs: 5000,
        refinementShare: 0.2,
        refinement: { llmCalls: 3, tokens: 2000, costUsd: 0 },
        training: spend(100, 250),
      },
      stoppedBy: "no-systematic-pattern",
      harness: { seedHash: "h", finalHash: "h" },
      iterations: [
        iteration({
          index: 1,
          diagnosis: {
            patterns: [pattern("p1", "slips", ["t1", "t2", "t1"]), pattern("p2", "format", ["t3"])],
            evidenceCount: 3,
          },
          applied: [planned(["slips"]), planned(["p2"])],
        }),
        iteration({
          index: 2,
          verdict: "rejected",
          diagnosis: { patterns: [pattern("p1", "x", ["t9"])], evidenceCount: 1 },
          applied: [planned(["x"])],
        }),
        iteration({
          index: 3,
          applied: [planned(["minibatch"])],
          traces: [trace("t7", false), trace("t8", true)],
        }),
      ],
    } as unknown as EvolveResult;
    const outcome = toEvolveOutcome(result);
    expect(outcome.training).toEqual({
      rollouts: 100,
      llmCalls: 200,
      promptTokens: 900,
      completionTokens: 100,
      wallMs: 1234,
      refinementShare: 0.25,
    });
    expect(outcome.total).toMatchObject({ rollouts: 150, wallMs: 5000, refinementShare: 0.2 });
    expect(outcome.final.heldout).toEqual({ accuracy: 0.8, n: 10 });
    expect(outcome.patterns.map((p) => [p.id, p.memberTaskIds])).toEqual([
      ["1:p1", ["t1", "t2"]],
      ["1:p2", ["t3"]],
      ["2:p1", ["t9"]],
    ]);
    expect(outcome.acceptedEdits.map((edit) => edit.addressedTaskIds)).toEqual([
      ["t1", "t2"],
      ["t3"],
      ["t7"],
    ]);
  });

  it("reads the accuracy trajectory and each accepted edit's fixed tasks", () => {
    const paired = (fixed: string[]) => ({
      n: 4,
      before: 1,
      after: 1 + fixed.length,
      fixed,
      broken: [],
      pValue: 0.01,
    });
    const decision = { accepted: true, reason: "" };
    const cheap = (fixed: string[], candidateHash = "c"): ValidationStage => ({
      step: "cheap validation",
      role: "screen",
      candidateHash,
      comparison: paired(fixed),
      decision,
    });
    const full = (fixed: string[], candidateHash = "c"): ValidationStage => ({
      step: "full batch",
      role: "verdict",
      candidateHash,
      comparison: paired(fixed),
      score: score(0.5),
      decision,
    });
    const result = {
      baseline: { train: score(0.4), heldout: score(0.3) },
      final: { train: score(0.9), heldout: score(0.8) },
      cost: {
        rollouts: 1,
        llmCalls: 1,
        promptTokens: 1,
        completionTokens: 1,
        costUsd: 0,
        wallMs: 1,
        refinementShare: 0,
        refinement: { llmCalls: 0, tokens: 0, costUsd: 0 },
        training: spend(1, 0),
      },
      stoppedBy: "budget:rollouts",
      harness: { seedHash: "h", finalHash: "c3" },
      iterations: [
        iteration({
          index: 1,
          batch: { taskIds: ["t1", "t2", "t3", "t4"], score: score(0.25) },
          accuracyAfter: 0.5,
          elapsedMs: 1200,
          candidateHash: "c1",
          validation: [cheap(["t9"], "c1"), full(["t2", "t2"], "c1")],
          applied: [planned([])],
          traces: [trace("t2", false)],
        }),
        iteration({
          index: 2,
          verdict: "rejected",
          accuracyAfter: 0.5,
          elapsedMs: 2000,
          candidateHash: "r2",
        }),
        iteration({
          index: 3,
          batch: { taskIds: ["t1", "t2", "t3", "t4"], score: score(0.5) },
          accuracyAfter: 0.75,
          elapsedMs: 3100,
          parentHash: "c1",
          candidateHash: "c3",
          validation: [cheap(["t3"], "c3")],
          applied: [planned([])],
        }),
      ],
    } as unknown as EvolveResult;
    const outcome = toEvolveOutcome(result);
    expect(outcome.trajectorySeedAccuracy).toBe(0.25);
    expect(outcome.trajectory).toEqual([
      { iteration: 1, elapsedMs: 1200, accuracy: 0.5, tasks: 4 },
      { iteration: 3, elapsedMs: 3100, accuracy: 0.75, tasks: 4 },
    ]);
    // The full validation decides; the cheap one only when there was no full one.
    expect(outcome.acceptedEdits.map((edit) => edit.fixedTaskIds)).toEqual([["t2"], ["t3"]]);
    // The harness in force: the seed, then each accepted candidate (a rejected one never is).
    expect(outcome.stoppedBy).toBe("budget:rollouts");
    expect(outcome.inForce).toEqual([
      { iteration: 0, elapsedMs: 0, harnessHash: "h" },
      { iteration: 1, elapsedMs: 1200, harnessHash: "c1" },
      { iteration: 3, elapsedMs: 3100, harnessHash: "c3" },
    ]);
    // A record whose accepted steps do not end at the returned harness is refused, not guessed at.
    expect(() =>
      toEvolveOutcome({
        ...result,
        harness: { seedHash: "h", finalHash: "other" },
      } as EvolveResult),
    ).toThrow(/end at harness c3, but the run returned other/);
  });

  it("takes the harness in force from the verdict: an accepted repair follow-up puts its candidate in force", () => {
    const comparison = { n: 4, before: 1, after: 3, fixed: ["t1", "t2"], broken: [], pValue: 0.01 };
    const yes = { accepted: true, reason: "ok" };
    const no = { accepted: false, reason: "broke t3" };
    const stats = { failures: 2, groups: 1, merged: false, systematic: 1, modelSpecific: 0 };
    const result = {
      baseline: { train: score(0.4), heldout: score(0.3) },
      final: { train: score(0.75), heldout: score(0.6) },
      cost: {
        rollouts: 1,
        llmCalls: 1,
        promptTokens: 1,
        completionTokens: 1,
        costUsd: 0,
        wallMs: 1,
        refinementShare: 0,
        training: spend(1, 1),
      },
      stoppedBy: "no-systematic-pattern",
      harness: { seedHash: "h", finalHash: "r1" },
      iterations: [
        iteration({
          index: 1,
          verdict: "rejected",
          candidateHash: "c1",
          diagnosis: {
            patterns: [pattern("p-calc", "calc", ["t1", "t2"])],
            evidenceCount: 2,
            stats,
          },
          validation: [
            {
              step: "cheap validation",
              role: "screen",
              candidateHash: "c1",
              comparison,
              decision: no,
            },
          ],
          accuracyAfter: 0.25,
          elapsedMs: 400,
        }),
        iteration({
          index: 1,
          followUp: { n: 1, purpose: "repair what the rejected candidate broke or exposed" },
          candidateHash: "r1",
          // The repair's own diagnosis (what the candidate broke) is not a pattern the bench scores.
          diagnosis: { patterns: [pattern("p-none", "none", ["t3"])], evidenceCount: 1, stats },
          validation: [
            {
              step: "cheap validation",
              role: "screen",
              candidateHash: "r1",
              comparison,
              decision: yes,
            },
            {
              step: "full batch",
              role: "verdict",
              candidateHash: "r1",
              comparison,
              score: score(0.75),
              decision: yes,
            },
          ],
          applied: [planned(["p-calc"]), planned(["p-none"])],
          accuracyAfter: 0.75,
          elapsedMs: 500,
        }),
      ],
    } as unknown as EvolveResult;
    const outcome = toEvolveOutcome(result);
    expect(outcome.inForce).toEqual([
      { iteration: 0, elapsedMs: 0, harnessHash: "h" },
      { iteration: 1, elapsedMs: 500, harnessHash: "r1" },
    ]);
    expect(outcome.patterns.map((found) => found.id)).toEqual(["1:p-calc"]);
    // Judged against the iteration's batch diagnosis: the repair's own edit falls back to the
    // failures the iteration showed (none here).
    expect(outcome.acceptedEdits.map((edit) => edit.addressedTaskIds)).toEqual([["t1", "t2"], []]);
    expect(outcome.acceptedEdits[0].fixedTaskIds).toEqual(["t1", "t2"]);
  });
});
