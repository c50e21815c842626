import { describe, expect, it } from "vitest";
import type { FailurePattern } from "../diagnose/failure-pattern.js";
import { formatPValue } from "../eval/statistics.js";
import type { EvolveResult, IterationRecord } from "../evolve/result-schema.js";
import {
  acceptedSentence,
  patternStanding,
  plural,
  resolvePlurals,
  stopSentence,
} from "./wording.js";

function iteration(
  verdict: IterationRecord["verdict"],
  edits: number,
  reason = "",
): IterationRecord {
  return {
    index: 0,
    parentHash: "h",
    batch: { taskIds: [], score: { accuracy: 0, n: 0, interval: [0, 0] } },
    applied: Array.from({ length: edits }, () => ({
      module: "prompt",
      edit: { kind: "add_rule", text: "x" },
      rationale: "",
      patterns: [],
    })) as IterationRecord["applied"],
    guardRejections: [],
    validation: [],
    elapsedMs: 0,
    verdict,
    reason,
    accuracyAfter: 0,
    traces: [],
  };
}

/** A run of these records, numbered 1, 2, … unless a record already has its index. */
function runOf(records: IterationRecord[], stoppedBy: EvolveResult["stoppedBy"]): EvolveResult {
  const iterations = records.map((entry, position) =>
    entry.index === 0 ? { ...entry, index: position + 1 } : entry,
  );
  return {
    iterations,
    stoppedBy,
    acceptedEdits: iterations
      .filter((entry) => entry.verdict === "accepted")
      .flatMap((entry) => entry.applied),
  } as EvolveResult;
}

/** Classification reasons from their `code: detail` spelling. */
function reasons(spelled: string[]): FailurePattern["reasons"] {
  return spelled.map((text) => {
    const [code, ...detail] = text.split(":");
    return {
      code: code.trim() as FailurePattern["reasons"][number]["code"],
      detail: detail.join(":").trim(),
    };
  });
}

describe("report wording", () => {
  it("labels a pattern below the support threshold 'insufficient support', not model-specific", () => {
    const narrow = {
      kind: "model-specific" as const,
      reasons: reasons(["narrow: 2 tasks (minimum 3)"]),
    };
    const singleton = { kind: "model-specific" as const, reasons: reasons(["singleton"]) };
    expect(patternStanding(narrow)).toBe("insufficient support");
    expect(patternStanding(singleton)).toBe("insufficient support");
  });

  it("calls a pattern model-specific only when re-sampling or a probe showed it", () => {
    const flaky = {
      kind: "model-specific" as const,
      reasons: reasons([
        "supported: 4 tasks across 2 categories",
        "flaky: 3 of 4 failing tasks passed",
      ]),
    };
    const probe = {
      kind: "model-specific" as const,
      reasons: reasons([
        "supported: 4 tasks",
        "reproducible: 4 of 4",
        "model-only: the probe passed 3 of 4",
      ]),
    };
    expect(patternStanding(flaky)).toBe("model-specific");
    expect(patternStanding(probe)).toBe("model-specific");
    expect(patternStanding({ kind: "systematic", reasons: reasons(["supported: 9 tasks"]) })).toBe(
      "systematic",
    );
    expect(
      patternStanding({
        kind: "model-specific",
        reasons: reasons(["unknown-task: the model said so"]),
      }),
    ).toBe("unknown task");
  });

  it("writes p < 0.0001 instead of p = 0.0000", () => {
    expect(formatPValue(0.00001)).toBe("p < 0.0001");
    expect(formatPValue(0)).toBe("p < 0.0001");
    expect(formatPValue(0.0195)).toBe("p = 0.0195");
    expect(formatPValue(1)).toBe("p = 1.0000");
  });

  it("counts one thing as accepted edits, and says how many proposals carried them", () => {
    const run = runOf(
      [
        iteration("accepted", 2),
        iteration("accepted", 2),
        iteration("accepted", 1),
        iteration("stopped", 0),
      ],
      "no-systematic-pattern",
    );
    expect(acceptedSentence(run)).toBe(
      "5 accepted edits in 3 accepted proposals (3 proposals over 4 iterations)",
    );
    const one = runOf([iteration("accepted", 1), iteration("rejected", 1)], "max-iterations");
    expect(acceptedSentence(one)).toBe(
      "1 accepted edit in 1 accepted proposal (2 proposals over 2 iterations)",
    );
    // A repair round is a proposal of its iteration, not an iteration of its own.
    const repaired = runOf(
      [
        { ...iteration("rejected", 1), index: 1 },
        { ...iteration("accepted", 2), index: 1, followUp: { n: 1, purpose: "repair" } },
      ],
      "max-iterations",
    );
    expect(acceptedSentence(repaired)).toBe(
      "2 accepted edits in 1 accepted proposal (2 proposals over 1 iteration)",
    );
  });

  it("states the true stop reason, from the iteration that stopped when there is one", () => {
    const exhausted = runOf(
      [
        iteration("rejected", 1),
        iteration(
          "stopped",
          0,
          "1 systematic pattern left, none attemptable: calc (3 of 3 attempts used)",
        ),
      ],
      "attempts-exhausted",
    );
    expect(stopSentence(exhausted)).toBe(
      "stopped: 1 systematic pattern left, none attemptable: calc (3 of 3 attempts used)",
    );
    expect(stopSentence(runOf([], "budget:rollouts"))).toBe("stopped: the rollout budget is spent");
    expect(stopSentence(runOf([iteration("accepted", 1)], "max-iterations"))).toBe(
      "stopped: evolve.maxIterations reached",
    );
  });

  it("writes singular and plural counts", () => {
    expect(plural(1, "category", "categories")).toBe("1 category");
    expect(plural(3, "category", "categories")).toBe("3 categories");
    expect(plural(0, "task")).toBe("0 tasks");
  });

  it("resolves the (s) plurals of the roles' summaries, over up to three words", () => {
    expect(resolvePlurals("answer-format-drift: 8 tasks, 0 rejected proposal(s)")).toBe(
      "answer-format-drift: 8 tasks, 0 rejected proposals",
    );
    expect(resolvePlurals("1 diagnosis(es), 1 rejected proposal(s)")).toBe(
      "1 diagnosis, 1 rejected proposal",
    );
    expect(resolvePlurals("round 2: 3 change(s) over 1 pattern(s)")).toBe(
      "round 2: 3 changes over 1 pattern",
    );
    expect(resolvePlurals("still contested after 2 revision round(s)")).toBe(
      "still contested after 2 revision rounds",
    );
  });
});
