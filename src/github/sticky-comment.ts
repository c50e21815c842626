import { githubStatus } from "./github-client.js";
import { fitBody, type RepoRef } from "./repo-ref.js";

/** The hidden marker that makes the gate comment sticky (found and updated in place). */
export const gateCommentMarker = "<!-- ecdysis-gate -->";

async function findMine(options: RepoRef & { number: number; marker: string }) {
  const comments = await options.client.paginate(options.client.rest.issues.listComments, {
    owner: options.owner,
    repo: options.repo,
    issue_number: options.number,
    per_page: 100,
  });
  return comments.find(
    (comment) => comment.user?.type === "Bot" && comment.body?.includes(options.marker),
  );
}

/**
 * Create or update the one bot comment of a PR that carries `marker`: edited in place, so a PR
 * gets a single gate comment however many times the gate runs. Comments by people are never
 * taken over, even when they contain the marker (anyone can paste it into a comment). A 5xx on
 * the create is not repeated blindly — GitHub may have posted it before failing — the comments
 * are read again and it is posted once more only when it is not there. A marker matches as a
 * whole (`<!-- ecdysis-gate a -->` never finds `<!-- ecdysis-gate ab -->`).
 */
export async function upsertStickyComment(
  options: RepoRef & {
    number: number;
    body: string;
    marker?: string;
    /** Kept below the cut when the body is over GitHub's limit (e.g. the run link). */
    footer?: string;
    /** Update the comment if there is one; never create it. */
    onlyIfPresent?: boolean;
  },
): Promise<{ id: number; operation: "created" | "updated" } | undefined> {
  const marker = options.marker ?? gateCommentMarker;
  const body = fitBody(`${marker}\n${options.body}`, { footer: options.footer });
  const ref = { ...options, marker };
  const mine = await findMine(ref);
  if (mine) {
    await options.client.rest.issues.updateComment({
      owner: options.owner,
      repo: options.repo,
      comment_id: mine.id,
      body,
    });
    return { id: mine.id, operation: "updated" };
  }
  if (options.onlyIfPresent) return undefined;
  const create = () =>
    options.client.rest.issues.createComment({
      owner: options.owner,
      repo: options.repo,
      issue_number: options.number,
      body,
    });
  try {
    return { id: (await create()).data.id, operation: "created" };
  } catch (error) {
    if ((githubStatus(error) ?? 0) < 500) throw error;
    const posted = await findMine(ref);
    if (posted) {
      if (posted.body !== body)
        await options.client.rest.issues.updateComment({
          owner: options.owner,
          repo: options.repo,
          comment_id: posted.id,
          body,
        });
      return { id: posted.id, operation: "created" };
    }
    return { id: (await create()).data.id, operation: "created" };
  }
}
