import { existsSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { InputError } from "../errors/input-error.js";
import type { LoadedConfig } from "./config-schema.js";

/**
 * Checks the folders a config names before anything runs: `cacheDir` must be a folder or not
 * exist yet (a file there, or on the way to it, would fail the first cache write with ENOTDIR);
 * `harness.dir`, once symlinks are resolved, must stay inside the repository (the nearest
 * folder above the config holding `.git`, else the config's folder): the Action commits the
 * evolved harness there, and a harness that lives elsewhere would be written outside it.
 */
export async function checkConfigPaths(loaded: LoadedConfig): Promise<void> {
  await checkCacheDir(loaded);
  await checkHarnessDir(loaded);
}

async function checkCacheDir(loaded: LoadedConfig): Promise<void> {
  const dir = loaded.config.cacheDir;
  // The nearest existing path on the way to the cache folder must be a folder.
  for (let probe = dir; ; probe = dirname(probe)) {
    const found = await stat(probe).then(
      (stats) => stats,
      (error: NodeJS.ErrnoException) =>
        error.code === "ENOENT" || error.code === "ENOTDIR" ? "missing" : "unknown",
    );
    if (found === "unknown") return;
    if (found !== "missing") {
      if (found.isDirectory()) return;
      throw new InputError(
        loaded.path,
        `'${probe}' is a file, not a folder; point 'cacheDir' at a folder (it is created when missing)`,
        { line: loaded.lines?.cacheDir, field: "cacheDir" },
      );
    }
    if (dirname(probe) === probe) return;
  }
}

async function checkHarnessDir(loaded: LoadedConfig): Promise<void> {
  const dir = loaded.config.harness.dir;
  const real = await realpath(dir).catch(() => undefined);
  if (real === undefined) return;
  const repository = repositoryRoot(loaded.root);
  const realRepository = await realpath(repository).catch(() => repository);
  if (inside(realRepository, real)) return;
  throw new InputError(
    loaded.path,
    `the harness folder resolves to '${real}', outside the repository '${realRepository}'${real === dir ? "" : " (through a symlink)"}; keep the harness inside the repository`,
    { line: loaded.lines?.["harness.dir"], field: "harness.dir" },
  );
}

/** The nearest folder at or above `start` that holds `.git`; `start` itself when there is none. */
export function repositoryRoot(start: string): string {
  let probe = start;
  for (;;) {
    if (existsSync(join(probe, ".git"))) return probe;
    const parent = dirname(probe);
    if (parent === probe) return start;
    probe = parent;
  }
}

function inside(root: string, candidate: string): boolean {
  const difference = relative(root, candidate);
  return (
    difference === "" ||
    (difference !== ".." && !difference.startsWith(`..${sep}`) && !isAbsolute(difference))
  );
}
