import { cp, lstat, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { GuardError } from "../errors/guard-error.js";
import { defaultGitIdentity, type Git, type GitIdentity } from "./git.js";

/** The trailer that marks a commit as written by Ecdysis; any other commit on the branch is foreign. */
export const runTrailer = "Ecdysis-Run";

/** What happened to the fixed branch. */
export type BranchUpdate =
  /** The evolved harness equals the base: nothing to propose. */
  | { kind: "no-change"; remoteSha?: string }
  /** Someone else committed to the branch: the bot backs off and pushes nothing. */
  | { kind: "foreign"; remoteSha: string; foreignCommits: string[] }
  /** The branch already holds exactly this change on the current base: no push. */
  | { kind: "unchanged"; sha: string }
  | { kind: "pushed"; sha: string; created: boolean }
  /** Dry run: the change was computed, nothing committed or pushed. */
  | { kind: "dry-run"; changed: boolean; remoteSha?: string };

/** Everything `updateHarnessBranch` needs. */
export interface BranchUpdateOptions {
  git: Git;
  base: string;
  branch: string;
  /** Harness folder relative to the repository root (forward slashes). */
  harnessPath: string;
  /** Folder with the evolved harness files (overlaid onto the base's harness folder). */
  evolvedDir: string;
  runId: string;
  /** Commit subject and body; the run trailer is appended. */
  message: string;
  identity?: GitIdentity;
  remote?: string;
  /** Compute whether there is a change, but commit and push nothing. */
  dryRun?: boolean;
}

/** Refuse harness paths that could write outside the harness or into git/workflow folders. */
export function assertHarnessPath(harnessPath: string): void {
  const parts = harnessPath.split(/[\\/]/);
  const bad =
    harnessPath === "" ||
    harnessPath.startsWith("/") ||
    parts.some(
      (part) => part === ".." || part.toLowerCase() === ".git" || part.toLowerCase() === ".github",
    );
  if (bad) {
    throw new GuardError(
      "path",
      `harness folder '${harnessPath}' must be inside the repository and outside .git/ and .github/`,
    );
  }
}

async function listFiles(dir: string): Promise<string[]> {
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
  return files;
}

async function remoteBranchSha(
  git: Git,
  remote: string,
  branch: string,
): Promise<string | undefined> {
  const out = await git.run(["ls-remote", "--heads", remote, `refs/heads/${branch}`]);
  const line = out.split("\n").find((row) => row.endsWith(`\trefs/heads/${branch}`));
  return line?.split("\t")[0];
}

/** Commits on `range` whose message lacks the run trailer. */
async function foreignCommits(git: Git, range: string): Promise<string[]> {
  const out = await git.run(["log", "--format=%H%x1f%B%x1e", range, "--"]);
  return out
    .split("\x1e")
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk !== "")
    .map((chunk) => chunk.split("\x1f") as [string, string])
    .filter(([, body]) => !new RegExp(`^${runTrailer}: \\S+`, "m").test(body))
    .map(([sha]) => sha);
}

/**
 * Put the evolved harness on the fixed branch, like create-pull-request: one commit on top of the
 * base, built in a temporary worktree (the checkout is never touched), pushed with
 * `--force-with-lease` against the sha we saw. Backs off when a commit on the branch is not ours.
 */
export async function updateHarnessBranch(options: BranchUpdateOptions): Promise<BranchUpdate> {
  const { git, base, branch, harnessPath } = options;
  const remote = options.remote ?? "origin";
  const identity = options.identity ?? defaultGitIdentity;
  assertHarnessPath(harnessPath);
  const baseRef = `refs/remotes/${remote}/${base}`;
  const branchRef = `refs/remotes/${remote}/${branch}`;
  await git.run(["fetch", "--no-tags", remote, `+refs/heads/${base}:${baseRef}`]);
  const remoteSha = await remoteBranchSha(git, remote, branch);
  if (remoteSha) {
    await git.run(["fetch", "--no-tags", remote, `+refs/heads/${branch}:${branchRef}`]);
    const foreign = await foreignCommits(git, `${baseRef}..${remoteSha}`);
    if (foreign.length > 0) return { kind: "foreign", remoteSha, foreignCommits: foreign };
  }
  const files = await listFiles(options.evolvedDir);
  const worktree = await mkdtemp(join(tmpdir(), "ecdysis-branch-"));
  await git.run(["worktree", "add", "--detach", worktree, baseRef]);
  try {
    const tree = git.at(worktree);
    for (const file of files) {
      const target = join(worktree, harnessPath, file);
      const existing = await lstat(target).catch(() => undefined);
      if (existing?.isSymbolicLink())
        throw new GuardError("path", `'${harnessPath}/${file}' is a symlink in the base`);
      await cp(join(options.evolvedDir, file), target, { force: true });
    }
    await tree.run(["add", "--", ...files.map((file) => `${harnessPath}/${file}`)]);
    const diff = await tree.exec(["diff", "--cached", "--quiet", "HEAD", "--"]);
    if (diff.code === 0) return { kind: "no-change", remoteSha };
    if (options.dryRun) return { kind: "dry-run", changed: true, remoteSha };
    const messageFile = join(worktree, "..", `${worktree.split(sep).pop()}.msg`);
    await writeFile(messageFile, `${options.message.trim()}\n\n${runTrailer}: ${options.runId}\n`);
    try {
      await tree.run([
        "-c",
        `user.name=${identity.name}`,
        "-c",
        `user.email=${identity.email}`,
        "commit",
        "--no-verify",
        "--no-gpg-sign",
        "--cleanup=verbatim",
        "-F",
        messageFile,
      ]);
    } finally {
      await rm(messageFile, { force: true });
    }
    const sha = (await tree.run(["rev-parse", "HEAD"])).trim();
    if (remoteSha) {
      const sameTree =
        (await tree.run(["rev-parse", "HEAD^{tree}"])).trim() ===
        (await tree.run(["rev-parse", `${remoteSha}^{tree}`])).trim();
      const sameBase =
        (await tree.run(["rev-parse", baseRef])).trim() ===
        (await tree.exec(["rev-parse", `${remoteSha}^`])).stdout.trim();
      if (sameTree && sameBase) return { kind: "unchanged", sha: remoteSha };
    }
    await tree.run([
      "push",
      `--force-with-lease=refs/heads/${branch}:${remoteSha ?? ""}`,
      remote,
      `HEAD:refs/heads/${branch}`,
    ]);
    return { kind: "pushed", sha, created: !remoteSha };
  } finally {
    await git.exec(["worktree", "remove", "--force", worktree]);
    await rm(worktree, { recursive: true, force: true });
  }
}
