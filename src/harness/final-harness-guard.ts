import { GuardError } from "../errors/guard-error.js";
import { escapeInvisible } from "../safety/guard-text.js";
import { contentRules, guardedText, introducedContent } from "./content-guards.js";
import type { GuardContext } from "./guard-context.js";
import { normaliseRelative } from "./harness-references.js";
import { portablePathProblem } from "./portable-path.js";
import type { LoadedHarness } from "./types.js";

/**
 * The last check before a final harness is written, committed or pushed: every file of `final`
 * goes once more through the content guards (whole text, normalised, against the same file of
 * the seed) and every new path through the portable-path limits. Edits were guarded one by one;
 * this catches whatever reached the final harness another way (a replayed stage, a strategy
 * that built a candidate without `applyEdits`, a bug). Throws GuardError naming the file.
 */
export function assertHarnessSealed(input: {
  seed: LoadedHarness;
  final: LoadedHarness;
  guard: GuardContext;
}): void {
  const { seed, final } = input;
  const rules = contentRules(input.guard);
  const seedPaths = Object.keys(seed.files);
  for (const [path, text] of Object.entries(final.files)) {
    // A file the run left as it was introduces nothing (and a large data file is not rescanned).
    if (seed.files[path] === text) continue;
    const shown = escapeInvisible(path);
    if (!(path in seed.files)) {
      const problem =
        normaliseRelative(path) === path
          ? portablePathProblem(path, seedPaths)
          : "not a plain relative path";
      if (problem)
        throw new GuardError("path", `refusing to write the final harness: '${shown}': ${problem}`);
    }
    const isConfig = path === "harness.yaml" && final.kind === "builtin";
    const finding = introducedContent({
      before: guardedText(seed.files[path] ?? "", isConfig ? seed.config : undefined),
      after: guardedText(text, isConfig ? final.config : undefined),
      rules,
    });
    if (finding) {
      throw new GuardError(
        finding.guard,
        `refusing to write the final harness: '${shown}' ${finding.reason} that the seed harness did not (the edit guards should have refused it; please report this)`,
      );
    }
  }
}
