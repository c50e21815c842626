import { fitBody, type RepoRef } from "./pull-request.js";

/** The hidden marker that makes the gate comment sticky (found and updated in place). */
export const gateCommentMarker = "<!-- ecdysis-gate -->";

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

/**
 * Create or update the one gate comment of a PR: the bot comment carrying the marker is edited in
 * place, so a PR gets a single gate comment however many times the gate runs. Comments by people
 * are never taken over, even when they contain the marker (anyone can paste it into a comment).
 */
export async function upsertStickyComment(
  options: RepoRef & { number: number; body: string; marker?: string },
): Promise<{ id: number; operation: "created" | "updated" }> {
  const marker = options.marker ?? gateCommentMarker;
  const body = fitBody(`${marker}\n${options.body}`);
  const comments = await options.client.paginate(options.client.rest.issues.listComments, {
    owner: options.owner,
    repo: options.repo,
    issue_number: options.number,
    per_page: 100,
  });
  const mine = comments.find(
    (comment) => comment.user?.type === "Bot" && comment.body?.includes(marker),
  );
  if (mine) {
    await options.client.rest.issues.updateComment({
      owner: options.owner,
      repo: options.repo,
      comment_id: mine.id,
      body,
    });
    return { id: mine.id, operation: "updated" };
  }
  const { data } = await options.client.rest.issues.createComment({
    owner: options.owner,
    repo: options.repo,
    issue_number: options.number,
    body,
  });
  return { id: data.id, operation: "created" };
}
