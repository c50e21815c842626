import { beforeAll, describe, expect, it } from "vitest";
import type { FailurePattern } from "../../diagnose/failure-pattern.js";
import { loadHarness } from "../../harness/load-harness.js";
import { fixtureFiles, makeHarnessDir } from "../../harness/testing/harness-fixture.js";
import type { LoadedHarness } from "../../harness/types.js";
import type { RunContext } from "../run-context.js";
import { strategyScope } from "../run-scope.js";
import { flips, ruleFor, rulesOnlyGuard } from "../testing/validation-fixture.js";
import { ablateRejected } from "./ablate.js";
import { ecdysisStreams, type Validation } from "./ecdysis-validate.js";

// A change of a rejected command-harness bundle may not parse alone on the parent: it is not
// run (its rollouts would all be agent errors) and not kept.

let parent: LoadedHarness;
beforeAll(async () => {
  parent = await loadHarness({ dir: await makeHarnessDir(fixtureFiles), kind: "builtin" });
});

describe("ablateRejected", () => {
  it("does not run a change whose files would not parse alone, and keeps none of them", async () => {
    const evaluated: string[] = [];
    const context = {
      guard: rulesOnlyGuard,
      checkCandidate: async () => "rules.md: line 4: unclosed block",
    } as unknown as RunContext;
    const scope = strategyScope({
      strategy: "ecdysis",
      streams: ecdysisStreams,
      seed: 1,
      stage: async (name) => {
        evaluated.push(name);
        throw new Error("must not run");
      },
    }).iteration(1);
    const validation = {
      context,
      scope,
      parent,
      batch: ["c1", "d1", "n1"].map((id) => ({ id, input: id, category: "c", expected: "x" })),
      addressed: [
        { id: "calc", name: "calc", kind: "systematic", taskIds: ["c1"] },
        { id: "date", name: "date", kind: "systematic", taskIds: ["d1"] },
      ] as unknown as FailurePattern[],
      before: new Map([
        ["c1", false],
        ["d1", false],
        ["n1", true],
      ]),
      stages: [],
      candidates: new Map(),
    } as unknown as Validation;
    const rebuilt = await ablateRejected({
      validation,
      kept: [ruleFor("fix:calc", "calc"), ruleFor("fix:date", "date")],
      cheap: flips(["c1", "d1"], []),
      full: flips(["c1"], ["n1"]),
    });
    expect(rebuilt).toBeUndefined();
    expect(evaluated).toEqual([]);
    expect(validation.stages).toMatchObject([
      {
        step: "ablation",
        role: "retry",
        changes: [
          { patterns: ["calc"], kept: false, unrun: "rules.md: line 4: unclosed block" },
          { patterns: ["date"], kept: false, unrun: "rules.md: line 4: unclosed block" },
        ],
        decision: { accepted: false, reason: "no change helps alone" },
      },
    ]);
  });
});
