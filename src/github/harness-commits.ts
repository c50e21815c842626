import { lstat, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { GuardError } from "../errors/guard-error.js";
import { defaultGitIdentity, type Git, type GitIdentity } from "./git.js";

/** Refuse harness paths that could write outside the harness or into git/workflow folders. */
export function assertHarnessPath(harnessPath: string): void {
  const parts = harnessPath.split(/[\\/]/);
  const bad =
    harnessPath === "" ||
    harnessPath === "." ||
    harnessPath.startsWith("/") ||
    parts.some(
      (part) => part === ".." || part.toLowerCase() === ".git" || part.toLowerCase() === ".github",
    );
  if (bad) {
    throw new GuardError(
      "path",
      `harness folder '${harnessPath}' must be a folder inside the repository, outside .git/ and .github/`,
    );
  }
}

/** Files of the evolved harness (relative, forward slashes); refuses symlinks and git/workflow paths. */
async function listHarnessFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const full = join(entry.parentPath, entry.name);
    const rel = relative(dir, full).split(sep).join("/");
    if (rel.split("/").some((part) => part === ".git" || part === ".github")) {
      throw new GuardError("path", `evolved harness contains '${rel}', which the bot never writes`);
    }
    if (entry.isSymbolicLink())
      throw new GuardError("path", `evolved harness contains a symlink: '${rel}'`);
    if (entry.isFile()) files.push(rel);
  }
  return files.sort();
}

/** Run `task` with a Git whose index is a scratch file (the checkout's own index is never touched). */
async function withScratchIndex<T>(git: Git, task: (indexed: Git) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "ecdysis-index-"));
  try {
    return await task(git.withEnv({ GIT_INDEX_FILE: join(dir, "index") }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function commitTree(options: {
  git: Git;
  tree: string;
  parent: string;
  message: string;
  identity: GitIdentity;
}): Promise<string> {
  const { git, identity } = options;
  const sha = await git.run([
    "-c",
    `user.name=${identity.name}`,
    "-c",
    `user.email=${identity.email}`,
    "commit-tree",
    "--no-gpg-sign",
    options.tree,
    "-p",
    options.parent,
    "-m",
    options.message,
  ]);
  return sha.trim();
}

/**
 * The commit the engine evolved from: the checkout's HEAD, or — when the harness folder in the
 * working tree differs from HEAD — HEAD plus those working-tree files. Taken before the engine
 * runs, so the seed→evolved diff is exactly the run's change.
 */
export async function snapshotSeed(options: {
  git: Git;
  harnessPath: string;
  identity?: GitIdentity;
}): Promise<string> {
  const { git, harnessPath } = options;
  assertHarnessPath(harnessPath);
  const head = (await git.run(["rev-parse", "--verify", "HEAD^{commit}"])).trim();
  return withScratchIndex(git, async (indexed) => {
    await indexed.run(["read-tree", head]);
    await indexed.run(["add", "-A", "--", harnessPath]);
    const tree = (await indexed.run(["write-tree"])).trim();
    if (tree === (await git.run(["rev-parse", `${head}^{tree}`])).trim()) return head;
    return commitTree({
      git,
      tree,
      parent: head,
      message: "ecdysis: seed harness (working tree)",
      identity: options.identity ?? defaultGitIdentity,
    });
  });
}

/**
 * A commit on top of `seed` whose harness folder holds the evolved files (byte-exact, executable
 * bits kept; files the evolved folder lacks are left as they were). Its diff to `seed` is the
 * run's change, ready to be carried onto any base with git's 3-way merge.
 */
export async function evolvedCommit(options: {
  git: Git;
  seed: string;
  harnessPath: string;
  evolvedDir: string;
  identity?: GitIdentity;
}): Promise<string> {
  const { git, seed, harnessPath, evolvedDir } = options;
  assertHarnessPath(harnessPath);
  const files = await listHarnessFiles(evolvedDir);
  return withScratchIndex(git, async (indexed) => {
    await indexed.run(["read-tree", seed]);
    if (files.length > 0) {
      const paths = files.map((file) => join(evolvedDir, file));
      const blobs = (await git.run(["hash-object", "-w", "--no-filters", "--", ...paths]))
        .trim()
        .split("\n");
      const cacheinfo: string[] = [];
      for (const [index, file] of files.entries()) {
        const stat = await lstat(paths[index]);
        const mode = stat.mode & 0o111 ? "100755" : "100644";
        cacheinfo.push("--cacheinfo", `${mode},${blobs[index]},${harnessPath}/${file}`);
      }
      await indexed.run(["update-index", "--add", ...cacheinfo]);
    }
    const tree = (await indexed.run(["write-tree"])).trim();
    return commitTree({
      git,
      tree,
      parent: seed,
      message: "ecdysis: evolved harness",
      identity: options.identity ?? defaultGitIdentity,
    });
  });
}

/** Tree id of `path` at `rev`, undefined when the commit has no such folder. */
export async function treeAt(git: Git, rev: string, path: string): Promise<string | undefined> {
  const result = await git.exec(["rev-parse", "--verify", "--quiet", `${rev}:${path}`]);
  return result.code === 0 ? result.stdout.trim() : undefined;
}
