import { randomBytes } from "node:crypto";
import { chmod, cp, mkdir, readdir, rename, rm, rmdir, stat, symlink } from "node:fs/promises";
import { join } from "node:path";
import type { LoadedHarness } from "./types.js";
import { writeHarness } from "./write-harness.js";

/** Folders the loader skips that a command still needs at run time: linked, never copied. */
const linkedFolders = ["node_modules"];

/**
 * Where a run's command-harness candidates live on disk: one folder per content hash, holding
 * exactly the candidate's files. A command harness runs from here, so what runs is what the hash
 * (and the rollout cache key) names — the seed and every candidate alike.
 */
export interface HarnessWorkspace {
  /** The run's own folder (`<parent>/run-<pid>-<random>`); created on first use. */
  readonly root: string;
  /**
   * The folder holding `harness`'s files: written once per hash (into a temporary folder renamed
   * into place, so no reader sees half a candidate), then reused. File modes are taken from the
   * file the harness was loaded from when it is there (an executable script stays executable);
   * `node_modules` of that folder is linked, not copied.
   */
  folderOf(harness: LoadedHarness): Promise<string>;
  /**
   * Ends the workspace: every folder it wrote is removed — or, with `keepIn`, moved there (one
   * folder per hash, for the report) first. Idempotent.
   */
  close(options?: { keepIn?: string }): Promise<void>;
}

/**
 * Opens a run's workspace under `parent` (e.g. `<cacheDir>/harnesses`). Each run has its own
 * folder, so a concurrent run's cleanup never removes what another is running; folders left by
 * a run whose process is gone (killed) are removed when the next one starts.
 */
export function openHarnessWorkspace(options: { parent: string; id?: string }): HarnessWorkspace {
  const id = options.id ?? `run-${process.pid}-${randomBytes(4).toString("hex")}`;
  const root = join(options.parent, id);
  const folders = new Map<string, Promise<string>>();
  let prepared: Promise<void> | undefined;
  const prepare = () => {
    prepared ??= (async () => {
      await removeStaleRuns(options.parent);
      await mkdir(root, { recursive: true });
    })();
    return prepared;
  };
  return {
    root,
    folderOf(harness) {
      let folder = folders.get(harness.hash);
      if (!folder) {
        folder = prepare().then(() => materialise(harness, root));
        folders.set(harness.hash, folder);
        // A failed write is not remembered: the next rollout tries again.
        folder.catch(() => folders.delete(harness.hash));
      }
      return folder;
    },
    async close(closeOptions = {}) {
      if (!prepared) return;
      await Promise.allSettled(folders.values());
      if (closeOptions.keepIn) await keepFolders(root, closeOptions.keepIn);
      await rm(root, { recursive: true, force: true });
      await rmdir(options.parent).catch(() => undefined);
      folders.clear();
      prepared = undefined;
    },
  };
}

async function materialise(harness: LoadedHarness, root: string): Promise<string> {
  const target = join(root, harness.hash);
  if (await isFolder(target)) return target;
  const temporary = join(
    root,
    `.tmp-${harness.hash.slice(0, 12)}-${randomBytes(4).toString("hex")}`,
  );
  try {
    await writeHarness(harness, temporary);
    await copyModes(harness, temporary);
    await linkDependencies(harness.dir, temporary);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    // Another writer of the same hash won the rename: its folder holds the same files.
    if (await isFolder(target)) return target;
    throw error;
  }
  return target;
}

async function copyModes(harness: LoadedHarness, folder: string): Promise<void> {
  for (const path of Object.keys(harness.files)) {
    const source = await stat(join(harness.dir, path)).catch(() => undefined);
    if (source?.isFile() && (source.mode & 0o111) !== 0)
      await chmod(join(folder, path), source.mode & 0o777);
  }
}

async function linkDependencies(sourceDir: string, folder: string): Promise<void> {
  for (const name of linkedFolders) {
    const source = join(sourceDir, name);
    if (await isFolder(source)) await symlink(source, join(folder, name), "dir");
  }
}

async function keepFolders(root: string, keepIn: string): Promise<void> {
  await mkdir(keepIn, { recursive: true });
  for (const name of await readdir(root)) {
    if (name.startsWith(".tmp-")) continue;
    const target = join(keepIn, name);
    if (await isFolder(target)) continue;
    await rename(join(root, name), target).catch(async () => {
      await cp(join(root, name), target, { recursive: true, verbatimSymlinks: true });
    });
  }
}

/** Removes `run-<pid>-…` folders whose process no longer exists. */
async function removeStaleRuns(parent: string): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^run-(\d+)-[0-9a-f]+$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isAlive(pid)) continue;
    await rm(join(parent, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
