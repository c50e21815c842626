import type { PlannedEdit } from "../../harness/types.js";
import type { PairedComparison } from "../paired-test.js";

/** A guard context that lets edits touch the fixture harness's rules.md only. */
export const rulesOnlyGuard = {
  editable: ["rules.md"],
  protectedPaths: [],
  forbiddenStrings: [],
  forbiddenInputs: [],
};

/** An add_rule edit of `text` aimed at one pattern. */
export function ruleFor(text: string, pattern: string): PlannedEdit {
  return {
    module: "prompt",
    patterns: [pattern],
    rationale: "r",
    edit: { kind: "add_rule", text },
  };
}

/** A paired comparison with these flips (counts only as far as the code under test reads them). */
export function flips(fixed: string[], broken: string[]): PairedComparison {
  return {
    n: 4,
    before: 1,
    after: 1 + fixed.length - broken.length,
    fixed,
    broken,
    shifted: [],
    pValue: 0.5,
  };
}
