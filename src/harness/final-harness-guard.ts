import { GuardError } from "../errors/guard-error.js";
import { escapeInvisible } from "../safety/guard-text.js";
import { contentRules, guardedFiles, introducedContent } from "./content-guards.js";
import type { GuardContext } from "./guard-context.js";
import { normaliseRelative } from "./harness-references.js";
import { portablePathProblem } from "./portable-path.js";
import type { LoadedHarness } from "./types.js";

/**
 * The last check before a final harness is written, committed or pushed: the whole of `final`
 * goes once more through the content guards (every file, normalised, against the whole seed)
 * and every new path through the portable-path limits. Edits were guarded one by one;
 * this catches whatever reached the final harness another way (a replayed stage, a strategy
 * that built a candidate without `applyEdits`, a bug). Throws GuardError naming the file (or
 * the files that carry it together).
 */
export function assertHarnessSealed(input: {
  seed: LoadedHarness;
  final: LoadedHarness;
  guard: GuardContext;
}): void {
  const { seed, final } = input;
  const seedPaths = Object.keys(seed.files);
  for (const path of Object.keys(final.files)) {
    if (path in seed.files) continue;
    const problem =
      normaliseRelative(path) === path
        ? portablePathProblem(path, seedPaths)
        : "not a plain relative path";
    if (problem)
      throw new GuardError(
        "path",
        `refusing to write the final harness: '${escapeInvisible(path)}': ${problem}`,
      );
  }
  const rules = contentRules(input.guard);
  const before = guardedFiles(seed);
  const after = guardedFiles(final);
  const finding = introducedContent({ before, after, rules });
  if (!finding) return;
  // Name the file that brings it alone; when only files together do (pieces), name them all.
  const changed = Object.keys(after).filter((path) => after[path] !== before[path]);
  const alone = changed.find((path) =>
    introducedContent({ before, after: { ...before, [path]: after[path] }, rules }),
  );
  const files = (alone ? [alone] : changed).map((path) => `'${escapeInvisible(path)}'`);
  throw new GuardError(
    finding.guard,
    `refusing to write the final harness: ${files.join(", ")} ${finding.reason} that the seed harness did not (the edit guards should have refused it; please report this)`,
  );
}
