import { beforeAll, describe, expect, it } from "vitest";
import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { loadHarness } from "../../harness/load-harness.js";
import { fixtureFiles, makeHarnessDir } from "../../harness/testing/harness-fixture.js";
import type { LoadedHarness } from "../../harness/types.js";
import { rebuildCandidate } from "../guard.js";
import type { RunContext } from "../run-context.js";
import { flips, ruleFor, rulesOnlyGuard } from "../testing/validation-fixture.js";
import type { Validation } from "./ecdysis-validate.js";
import { pruneChanges } from "./prune.js";

// A command harness's edits can need each other to parse (one opens what the other closes):
// pruning one of them must not run a candidate that cannot run.

const pattern = (id: string, taskIds: string[]) =>
  ({ id, name: id, kind: "systematic", taskIds }) as unknown as FailurePattern;
const edits = [ruleFor("fix:calc", "calc"), ruleFor("fix:none", "date")];
const cheap = flips(["c1", "c2"], []);

/** A cheap-subset runner that records the stages it ran. */
function recorder() {
  const ran: string[] = [];
  const runCheap = async (_harness: LoadedHarness, stage: string) => {
    ran.push(stage);
    return cheap;
  };
  return { ran, runCheap };
}

let parent: LoadedHarness;
beforeAll(async () => {
  parent = await loadHarness({ dir: await makeHarnessDir(fixtureFiles), kind: "builtin" });
});

function validation(
  checkCandidate: RunContext["checkCandidate"],
  rolloutsLeft?: () => number,
): Validation {
  return {
    context: { guard: rulesOnlyGuard, checkCandidate, rolloutsLeft } as unknown as RunContext,
    parent,
    batch: ["c1", "c2", "d1", "n1"].map((id) => ({ id, input: id, expected: "42" })),
    addressed: [pattern("calc", ["c1", "c2"]), pattern("date", ["d1"])],
    before: new Map([
      ["c1", false],
      ["c2", false],
      ["d1", false],
      ["n1", true],
    ]),
    stages: [],
    candidates: new Map(),
  } as unknown as Validation;
}

describe("pruneChanges", () => {
  it("keeps a change it would prune when the candidate without it would not parse, without running it", async () => {
    const candidate = rebuildCandidate({ parent, edits, guard: rulesOnlyGuard });
    const { ran, runCheap } = recorder();
    const checked = validation(async ({ candidate: without }) =>
      without.hash === candidate.harness.hash ? undefined : "rules.md: line 3: unclosed block",
    );
    const pruned = await pruneChanges({
      validation: checked,
      candidate: candidate.harness,
      kept: candidate.applied,
      cheap,
      runCheap,
    });
    expect(ran).toEqual([]);
    expect(pruned.terminal).toBe(false);
    expect(pruned.kept).toEqual(candidate.applied);
    expect(checked.stages).toMatchObject([
      {
        step: "pruning",
        role: "note",
        changes: [{ patterns: ["date"], kept: true }],
        decision: { accepted: false, reason: "without them rules.md: line 3: unclosed block" },
      },
    ]);
  });

  it("runs the pruned candidate on the cheap subset when it parses", async () => {
    const candidate = rebuildCandidate({ parent, edits, guard: rulesOnlyGuard });
    const { ran, runCheap } = recorder();
    const pruned = await pruneChanges({
      validation: validation(async () => undefined),
      candidate: candidate.harness,
      kept: candidate.applied,
      cheap,
      runCheap,
    });
    expect(ran).toEqual(["validate-cheap-pruned"]);
    expect(pruned.kept.map((edit) => edit.edit)).toEqual([{ kind: "add_rule", text: "fix:calc" }]);
  });

  it("keeps the changes, unrun, when the budget left cannot carry the pruned candidate's batch", async () => {
    const candidate = rebuildCandidate({ parent, edits, guard: rulesOnlyGuard });
    const { ran, runCheap } = recorder();
    // The pruned candidate's batch is 4 tasks; 4 are left, and the last would exhaust the budget.
    const tight = validation(
      async () => undefined,
      () => 4,
    );
    const pruned = await pruneChanges({
      validation: tight,
      candidate: candidate.harness,
      kept: candidate.applied,
      cheap,
      runCheap,
    });
    expect(ran).toEqual([]);
    expect(pruned).toMatchObject({ terminal: false, kept: candidate.applied });
    expect(tight.stages).toMatchObject([
      { step: "pruning", role: "note", changes: [{ patterns: ["date"], kept: true }] },
    ]);
    expect(tight.stages[0].decision.reason).toBe(
      "not pruned: the budget left (4 rollouts) cannot carry the pruned candidate's batch (4); the full batch decides on the bundle as it is",
    );
  });

  // A rule naming one train task's item fixes that task and nothing of its pattern: without it
  // the cheap subset fixes one task fewer, which is no reason to put it back.
  it("does not put back an item-naming change for the task it names", async () => {
    const hint = ruleFor("When a question mentions Rinmark Faolla, re-read it.", "date");
    const candidate = rebuildCandidate({
      parent,
      edits: [edits[0], hint],
      guard: rulesOnlyGuard,
    });
    const named = validation(async () => undefined);
    named.itemNames = new Map([[candidate.applied[1], ["n1x"]]]);
    const ran: string[] = [];
    const pruned = await pruneChanges({
      validation: named,
      candidate: candidate.harness,
      kept: candidate.applied,
      cheap: flips(["c1", "c2", "n1x"], []),
      runCheap: async (_harness, stage) => {
        ran.push(stage);
        return flips(["c1", "c2"], []);
      },
    });
    expect(ran).toEqual(["validate-cheap-pruned"]);
    expect(named.stages[0]).toMatchObject({ step: "pruning", role: "prune" });
    expect(named.stages[0].changes?.[0].reason).toMatch(/names one train task's item \(n1x\)/);
    expect(pruned.kept.map((edit) => edit.edit)).toEqual([{ kind: "add_rule", text: "fix:calc" }]);
  });

  // On the bench (model-noise 9) the calculator made the arithmetic tasks fail differently, and
  // the item hint riding on their pattern was kept for it: a hint for one task unmasks nothing.
  it("prunes an item-naming change whose targets fail differently under the bundle", async () => {
    const hint = ruleFor("When a question mentions Rinmark Faolla, re-read it.", "date");
    const candidate = rebuildCandidate({ parent, edits: [edits[0], hint], guard: rulesOnlyGuard });
    const named = validation(async () => undefined);
    named.itemNames = new Map([[candidate.applied[1], []]]);
    const shifted = { ...flips(["c1", "c2"], []), shifted: ["d1"] };
    const pruned = await pruneChanges({
      validation: named,
      candidate: candidate.harness,
      kept: candidate.applied,
      cheap: shifted,
      runCheap: async () => shifted,
    });
    expect(named.stages[0]).toMatchObject({ step: "pruning", role: "prune" });
    expect(pruned.kept.map((edit) => edit.edit)).toEqual([{ kind: "add_rule", text: "fix:calc" }]);
  });

  // On the bench (mediocre-refiner 5, budget 5) a repair round's hint named a pattern of the
  // tasks the rejected candidate broke: none of them failed under the parent, so the change had
  // no target and was left to the paired tests, which counted the task it names.
  it("prunes an item-naming change whose pattern has no failing member in the batch", async () => {
    const hint = ruleFor("When a question mentions Rinmark Faolla, re-read it.", "broke");
    const candidate = rebuildCandidate({ parent, edits: [edits[0], hint], guard: rulesOnlyGuard });
    const named = validation(async () => undefined);
    named.addressed = [...named.addressed, pattern("broke", ["n1"])];
    named.itemNames = new Map([[candidate.applied[1], []]]);
    const pruned = await pruneChanges({
      validation: named,
      candidate: candidate.harness,
      kept: candidate.applied,
      cheap,
      runCheap: async () => cheap,
    });
    expect(named.stages[0]).toMatchObject({ step: "pruning", role: "prune" });
    expect(named.stages[0].changes?.[0].reason).toMatch(
      /^no member of broke failed in the batch before it; it names one train task's item, kept only for fixes of its pattern/,
    );
    expect(pruned.kept.map((edit) => edit.edit)).toEqual([{ kind: "add_rule", text: "fix:calc" }]);
  });
});
