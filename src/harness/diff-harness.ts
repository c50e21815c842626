import type { LoadedHarness } from "./types.js";
import { unifiedDiff } from "./unified-diff.js";

/** Result of comparing two harnesses: one patch over all files plus per-file counts. */
export interface HarnessDiff {
  patch: string;
  files: { path: string; added: number; removed: number }[];
}

/**
 * Unified diff between two harnesses (files sorted by path, 3 lines of context), applicable
 * with `git apply` / `patch -p1`, and the added/removed line counts of every changed file.
 */
export function diffHarness(before: LoadedHarness, after: LoadedHarness): HarnessDiff {
  const paths = [...new Set([...Object.keys(before.files), ...Object.keys(after.files)])].sort();
  const patches: string[] = [];
  const files: HarnessDiff["files"] = [];
  for (const path of paths) {
    const filePatch = unifiedDiff({ path, before: before.files[path], after: after.files[path] });
    if (!filePatch.patch) continue;
    patches.push(filePatch.patch);
    files.push({ path, added: filePatch.added, removed: filePatch.removed });
  }
  return { patch: patches.join(""), files };
}
