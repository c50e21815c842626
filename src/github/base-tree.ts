import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { GuardError } from "../errors/guard-error.js";
import { InputError } from "../errors/input-error.js";
import type { Git } from "./git.js";

/** Make sure a commit is in the local repository, fetching just it when the checkout is shallow. */
export async function ensureCommit(git: Git, sha: string, remote = "origin"): Promise<void> {
  if (!/^[0-9a-f]{7,64}$/i.test(sha))
    throw new InputError("event payload", `'${sha}' is not a commit sha`, {
      field: "pull_request.base.sha",
    });
  const present = await git.exec(["cat-file", "-e", `${sha}^{commit}`]);
  if (present.code === 0) return;
  await git.run(["fetch", "--no-tags", "--depth=1", remote, sha]);
}

/** One entry of a commit's tree. */
interface TreeEntry {
  mode: string;
  type: string;
  object: string;
  path: string;
}

/** Every entry under `folder` of commit `sha` (`""` or `"."`: the whole tree). */
async function listTree(git: Git, sha: string, folder: string): Promise<TreeEntry[]> {
  const args = ["ls-tree", "-r", "-z", "--full-tree", sha];
  // An empty pathspec is an error to git; the root is "no pathspec at all".
  if (folder !== "" && folder !== ".") args.push("--", folder);
  const listing = await git.run(args);
  return listing
    .split("\0")
    .filter((line) => line !== "")
    .map((line) => {
      const tab = line.indexOf("\t");
      const [mode, type, object] = line.slice(0, tab).split(" ");
      return { mode, type, object, path: line.slice(tab + 1) };
    });
}

function assertInside(path: string): void {
  const parts = path.split("/");
  if (path.startsWith("/") || parts.some((part) => part === ".." || part === ".git"))
    throw new GuardError("path", `the base commit holds an unsafe path '${path}'`);
}

/**
 * Copy the files under `folder` as they are at commit `sha` into `into` (which stands for the
 * repository root), with `git cat-file blob` — byte-exact, executable bits kept; the working tree
 * (the PR's files) is never read. Symlinks and submodules are not copied; their paths are
 * returned in `skipped`.
 */
export async function materialiseBaseTree(options: {
  git: Git;
  sha: string;
  folder: string;
  into: string;
}): Promise<{ root: string; skipped: string[] }> {
  const { git, sha, into } = options;
  const skipped: string[] = [];
  await mkdir(into, { recursive: true });
  for (const entry of await listTree(git, sha, options.folder)) {
    if (entry.type !== "blob" || entry.mode === "120000") {
      skipped.push(entry.path);
      continue;
    }
    assertInside(entry.path);
    const target = join(into, entry.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, await git.runBytes(["cat-file", "blob", entry.object]));
    if (entry.mode === "100755") await chmod(target, 0o755);
  }
  return { root: into, skipped };
}
