import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TransportError } from "../errors/transport-error.js";
import { defaultGitIdentity, type Git, type GitIdentity } from "./git.js";
import { assertHarnessPath, evolvedCommit, treeAt } from "./harness-commits.js";
import { pushRefusal } from "./permission-error.js";

/** The trailer that marks a commit as written by Ecdysis; any other commit on the branch is foreign. */
const runTrailer = "Ecdysis-Run";

/**
 * How the base's harness relates to the seed the run evolved: `unchanged` (what was measured is
 * what the PR proposes), `merged` (it changed during the run; the change was carried onto it by
 * a 3-way merge, so the accuracies were measured on the seed, not on this merge).
 */
export type BaseHarness = "unchanged" | "merged";

/** What happened to the fixed branch. */
export type BranchUpdate =
  /** The change is already on the base: nothing to propose. */
  | { kind: "no-change"; remoteSha?: string; baseHarness: BaseHarness }
  /** Someone else committed to the branch: the bot backs off and pushes nothing. */
  | { kind: "foreign"; remoteSha: string; foreignCommits: string[] }
  /** The run's change does not merge onto the base (the base's harness changed under it). */
  | { kind: "conflict"; files: string[]; baseCommits: string[]; remoteSha?: string }
  /** The branch already holds exactly this change on the current base: no push. */
  | { kind: "unchanged"; sha: string; baseHarness: BaseHarness }
  | { kind: "pushed"; sha: string; created: boolean; baseHarness: BaseHarness }
  /** Dry run: the change was computed, nothing committed or pushed. */
  | { kind: "dry-run"; changed: boolean; remoteSha?: string; baseHarness: BaseHarness };

/** Everything `updateHarnessBranch` needs. */
export interface BranchUpdateOptions {
  /** Git at the repository root of the checkout. */
  git: Git;
  base: string;
  branch: string;
  /** Harness folder relative to the repository root (forward slashes). */
  harnessPath: string;
  /** The commit the run evolved from (`snapshotSeed`). */
  seed: string;
  /** Folder with the evolved harness files (their diff to the seed is the run's change). */
  evolvedDir: string;
  runId: string;
  /** Commit subject and body; the run trailer is appended. */
  message: string;
  identity?: GitIdentity;
  remote?: string;
  /** Compute whether there is a change, but commit and push nothing. */
  dryRun?: boolean;
}

/** Head sha of `branch` on the remote, undefined when it does not exist. */
export async function remoteBranchSha(
  git: Git,
  remote: string,
  branch: string,
): Promise<string | undefined> {
  const out = await git.run(["ls-remote", "--heads", remote, `refs/heads/${branch}`]);
  const line = out.split("\n").find((row) => row.endsWith(`\trefs/heads/${branch}`));
  return line?.split("\t")[0];
}

function gitFailure(command: string, stderr: string): TransportError {
  return new TransportError("git", `git ${command} failed: ${stderr.trim()}`, { retryable: false });
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
 * Fetch the fixed branch and return its commits that are not on the base and lack the trailer.
 * In a shallow checkout (actions/checkout's default) the base's history is cut off, so the
 * branch is fetched with `--shallow-exclude=<base>`: only its own commits arrive, and the base's
 * older commits are never mistaken for someone else's.
 */
export async function foreignOnBranch(options: {
  git: Git;
  remote: string;
  base: string;
  branch: string;
  remoteSha: string;
}): Promise<string[]> {
  const { git, remote, base, branch, remoteSha } = options;
  const baseRef = `refs/remotes/${remote}/${base}`;
  const refspec = `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`;
  const shallow = (await git.run(["rev-parse", "--is-shallow-repository"])).trim() === "true";
  if (!shallow) {
    await git.run(["fetch", "--no-tags", remote, refspec]);
    return foreignCommits(git, `${baseRef}..${remoteSha}`);
  }
  const fetched = await git.exec([
    "fetch",
    "--no-tags",
    `--shallow-exclude=refs/heads/${base}`,
    remote,
    refspec,
  ]);
  if (fetched.code === 0) return foreignCommits(git, `${baseRef}..${remoteSha}`);
  if (!/no commits selected for shallow requests/i.test(fetched.stderr))
    throw gitFailure("fetch", git.scrubText(fetched.stderr));
  // Every commit of the branch is on the base already: none can be foreign.
  await git.run(["fetch", "--no-tags", "--depth=1", remote, refspec]);
  return [];
}

/** Base commits that touched the harness since the seed (best effort in a shallow checkout). */
async function harnessCommitsSince(options: {
  git: Git;
  seed: string;
  baseRef: string;
  harnessPath: string;
}): Promise<string[]> {
  const result = await options.git.exec([
    "log",
    "--format=%h",
    "-n",
    "10",
    `${options.seed}..${options.baseRef}`,
    "--",
    options.harnessPath,
  ]);
  return result.code === 0 ? result.stdout.split("\n").filter((line) => line !== "") : [];
}

async function commitStaged(tree: Git, options: BranchUpdateOptions, worktree: string) {
  const identity = options.identity ?? defaultGitIdentity;
  const messageFile = `${worktree}.msg`;
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
  return (await tree.run(["rev-parse", "HEAD"])).trim();
}

/**
 * Push HEAD to `branch`, leased on the sha seen (none: the branch must not exist). A lease lost
 * to another run that pushed meanwhile is said in one line, not as git's text.
 */
async function pushLeased(options: {
  tree: Git;
  remote: string;
  branch: string;
  remoteSha?: string;
}): Promise<void> {
  const { tree, branch } = options;
  const pushed = await tree.exec([
    "push",
    `--force-with-lease=refs/heads/${branch}:${options.remoteSha ?? ""}`,
    options.remote,
    `HEAD:refs/heads/${branch}`,
  ]);
  if (pushed.code === 0) return;
  if (/\((stale info|fetch first)\)|non-fast-forward/.test(pushed.stderr))
    throw new TransportError(
      "git",
      `Another run pushed \`${branch}\` while this one was running, so this run's result was not pushed (its lease on the branch was lost); the other run's pull request stands. Re-run the workflow to evolve from the latest state.`,
      { retryable: true },
    );
  throw pushRefusal({ branch, stderr: tree.scrubText(pushed.stderr) });
}

/**
 * Put the run's change on the fixed branch, like create-pull-request: one commit on top of the
 * current base, built in a temporary worktree (the checkout is never touched). The change is the
 * seed→evolved diff carried onto the base by git's 3-way merge (`cherry-pick`), so a harness
 * change merged to the base during the run is kept, never reverted; when it does not merge, the
 * update is a `conflict` and nothing is pushed. Pushes with `--force-with-lease` against the sha
 * it saw, and backs off when a commit on the branch is not ours.
 */
export async function updateHarnessBranch(options: BranchUpdateOptions): Promise<BranchUpdate> {
  const { git, base, branch, harnessPath, seed } = options;
  const remote = options.remote ?? "origin";
  const identity = options.identity ?? defaultGitIdentity;
  assertHarnessPath(harnessPath);
  const baseRef = `refs/remotes/${remote}/${base}`;
  await git.run(["fetch", "--no-tags", remote, `+refs/heads/${base}:${baseRef}`]);
  const remoteSha = await remoteBranchSha(git, remote, branch);
  if (remoteSha) {
    const foreign = await foreignOnBranch({ git, remote, base, branch, remoteSha });
    if (foreign.length > 0) return { kind: "foreign", remoteSha, foreignCommits: foreign };
  }
  const evolved = await evolvedCommit({ ...options, identity });
  const baseHarness: BaseHarness =
    (await treeAt(git, baseRef, harnessPath)) === (await treeAt(git, seed, harnessPath))
      ? "unchanged"
      : "merged";
  const worktree = await mkdtemp(join(tmpdir(), "ecdysis-branch-"));
  await git.run(["worktree", "add", "--detach", worktree, baseRef]);
  try {
    const tree = git.at(worktree);
    const picked = await tree.exec([
      "-c",
      `user.name=${identity.name}`,
      "-c",
      `user.email=${identity.email}`,
      "cherry-pick",
      "--no-commit",
      evolved,
    ]);
    if (picked.code !== 0) {
      const unmerged = await tree.exec(["diff", "--name-only", "--diff-filter=U"]);
      const files = unmerged.stdout.split("\n").filter((line) => line !== "");
      if (files.length === 0) throw gitFailure("cherry-pick", git.scrubText(picked.stderr));
      const baseCommits = await harnessCommitsSince({ git, seed, baseRef, harnessPath });
      return { kind: "conflict", files, baseCommits, remoteSha };
    }
    const diff = await tree.exec(["diff", "--cached", "--quiet", "HEAD", "--"]);
    if (diff.code === 0) return { kind: "no-change", remoteSha, baseHarness };
    if (options.dryRun) return { kind: "dry-run", changed: true, remoteSha, baseHarness };
    const sha = await commitStaged(tree, options, worktree);
    if (remoteSha) {
      const sameTree =
        (await tree.run(["rev-parse", "HEAD^{tree}"])).trim() ===
        (await tree.run(["rev-parse", `${remoteSha}^{tree}`])).trim();
      const sameBase =
        (await tree.run(["rev-parse", baseRef])).trim() ===
        (await tree.exec(["rev-parse", `${remoteSha}^`])).stdout.trim();
      if (sameTree && sameBase) return { kind: "unchanged", sha: remoteSha, baseHarness };
    }
    await pushLeased({ tree, remote, branch, remoteSha });
    return { kind: "pushed", sha, created: !remoteSha, baseHarness };
  } finally {
    await git.exec(["worktree", "remove", "--force", worktree]);
    await rm(worktree, { recursive: true, force: true });
  }
}
