import { foreignOnBranch, remoteBranchSha } from "./branch-update.js";
import type { ClosedPullRequest } from "./closed-pr-memory.js";
import type { Git } from "./git.js";

/** What became of the bot's branch once its PR was merged or closed. */
export type BranchCleanup = "deleted" | "absent" | "kept-foreign" | "lost-race";

/**
 * Delete the bot's branch after its PR was merged or closed (GitHub's own "automatically delete
 * head branches" covers merges only), by the next evolve run. A branch that holds a commit
 * without the bot's trailer is someone's work and is kept; the delete is leased on the sha seen,
 * so a push that lands meanwhile is never lost.
 */
export async function deleteSettledBranch(options: {
  git: Git;
  base: string;
  branch: string;
  remote?: string;
}): Promise<BranchCleanup> {
  const { git, base, branch } = options;
  const remote = options.remote ?? "origin";
  const remoteSha = await remoteBranchSha(git, remote, branch);
  if (!remoteSha) return "absent";
  await git.run([
    "fetch",
    "--no-tags",
    remote,
    `+refs/heads/${base}:refs/remotes/${remote}/${base}`,
  ]);
  const foreign = await foreignOnBranch({ git, remote, base, branch, remoteSha });
  if (foreign.length > 0) return "kept-foreign";
  const pushed = await git.exec([
    "push",
    `--force-with-lease=refs/heads/${branch}:${remoteSha}`,
    remote,
    `:refs/heads/${branch}`,
  ]);
  return pushed.code === 0 ? "deleted" : "lost-race";
}

/** The log line for a cleanup. */
export function cleanupNote(options: {
  branch: string;
  closed: ClosedPullRequest;
  result: BranchCleanup;
}): string | undefined {
  const pr = `#${options.closed.number} was ${options.closed.merged ? "merged" : "closed"}`;
  if (options.result === "deleted") return `${pr}: branch \`${options.branch}\` deleted.`;
  if (options.result === "kept-foreign")
    return `${pr}, but branch \`${options.branch}\` holds someone else's commits: kept.`;
  if (options.result === "lost-race")
    return `${pr}; branch \`${options.branch}\` moved while it was being deleted: kept.`;
  return undefined;
}
