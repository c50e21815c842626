import { randomBytes } from "node:crypto";
import { lstat, mkdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { GuardError } from "../errors/guard-error.js";
import { normaliseRelative } from "./harness-references.js";
import { isInside } from "./path-guard.js";
import type { LoadedHarness } from "./types.js";

/**
 * Writes a harness's files into `dir`: only files that are new or whose content differs, each
 * through a temp file renamed over the target in the same folder (a reader never sees half a
 * file). Refuses (GuardError, before writing anything) any path that is not plainly relative or
 * that resolves outside `dir`, including through a symlink.
 */
export async function writeHarness(harness: LoadedHarness, dir: string): Promise<void> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const realRoot = await realpath(root);
  const planned: { target: string; content: string }[] = [];
  for (const [path, content] of Object.entries(harness.files).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const normalised = normaliseRelative(path);
    if (normalised === null || normalised !== path)
      throw new GuardError("path", `refusing to write '${path}': not a plain relative path`);
    const target = join(root, normalised);
    await assertInside(realRoot, target);
    const existing = await readFile(target, "utf8").catch(() => undefined);
    if (existing !== content) planned.push({ target, content });
  }
  for (const { target, content } of planned) {
    await mkdir(dirname(target), { recursive: true });
    await assertInside(realRoot, target);
    const temporary = join(dirname(target), `.${randomBytes(6).toString("hex")}.ecdysis-tmp`);
    try {
      await writeFile(temporary, content, { flag: "wx" });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}

/** Throws when the nearest existing ancestor of `target` (or `target` itself) resolves outside `realRoot`. */
async function assertInside(realRoot: string, target: string): Promise<void> {
  let probe = target;
  for (;;) {
    const stats = await lstat(probe).catch(() => undefined);
    if (stats) break;
    const parent = dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  const real = await realpath(probe).catch(() => probe);
  if (!isInside(realRoot, real)) {
    throw new GuardError(
      "path",
      `refusing to write '${target}': it resolves outside '${realRoot}'`,
    );
  }
}
