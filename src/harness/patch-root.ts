import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** The folder holding `.git` (a folder, or a file in a worktree) at or above `dir`; undefined outside a repository. */
export function findGitRoot(dir: string): string | undefined {
  let current = dir;
  for (;;) {
    if (existsSync(join(current, ".git"))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Where harness.patch is rooted: the repository root (else the config folder), and the harness folder's path from it. */
export interface PatchBase {
  root: string;
  /** The harness folder relative to `root`, with `/` separators ("" when they are the same). */
  prefix: string;
  inRepository: boolean;
}

/** The base of harness.patch: the git root above the config folder, falling back to the config folder. */
export function patchBase(options: { configDir: string; harnessDir: string }): PatchBase {
  const repository = findGitRoot(options.configDir);
  const root = repository ?? options.configDir;
  return {
    root,
    prefix: relative(root, options.harnessDir).split(sep).join("/"),
    inRepository: repository !== undefined,
  };
}

/**
 * Rewrites a unified diff whose paths are relative to the harness folder so they are relative to
 * the base instead (`a/rules.md` → `a/agent/harness/rules.md`): only the `---`/`+++` file
 * headers, never a hunk line (hunks are skipped by their line counts).
 */
export function rebasePatch(patch: string, prefix: string): string {
  if (prefix === "" || patch === "") return patch;
  const lines = patch.split("\n");
  let oldLeft = 0;
  let newLeft = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith("\\")) continue;
      if (line[0] !== "+") oldLeft -= 1;
      if (line[0] !== "-") newLeft -= 1;
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = Number(hunk[1] ?? 1);
      newLeft = Number(hunk[2] ?? 1);
    } else if (line.startsWith("--- a/")) lines[index] = `--- a/${prefix}/${line.slice(6)}`;
    else if (line.startsWith("+++ b/")) lines[index] = `+++ b/${prefix}/${line.slice(6)}`;
  }
  return lines.join("\n");
}
