import type { RepoRef } from "./repo-ref.js";

export { gateCommentMarker, upsertStickyComment } from "./sticky-comment.js";

/** Commit status states the gate posts. */
export type StatusState = "success" | "failure" | "error" | "pending";

/** Trim to GitHub's 140-character status description limit. */
export function statusDescription(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= 140 ? line : `${line.slice(0, 139)}…`;
}

/** Post a commit status with a fixed context on `sha`. */
export async function postCommitStatus(
  options: RepoRef & {
    sha: string;
    state: StatusState;
    context: string;
    description: string;
    targetUrl?: string;
  },
): Promise<void> {
  await options.client.rest.repos.createCommitStatus({
    owner: options.owner,
    repo: options.repo,
    sha: options.sha,
    state: options.state,
    context: options.context,
    description: statusDescription(options.description),
    ...(options.targetUrl ? { target_url: options.targetUrl } : {}),
  });
}
