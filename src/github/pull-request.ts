import { closedByBotMarker } from "./closed-pr-memory.js";
import { githubMessage, githubStatus } from "./github-client.js";
import { PullRequestNotPermittedError } from "./not-permitted-error.js";
import { fitBody, type RepoRef } from "./repo-ref.js";
import { upsertStickyComment } from "./sticky-comment.js";

export { fitBody, maxBodyChars, type RepoRef } from "./repo-ref.js";

/** What the Action did to the pull request (the create-pull-request vocabulary). */
export type PullRequestOperation = "created" | "updated" | "closed" | "none";

/** An open pull request of the fixed branch. */
export interface PullRequestRef {
  number: number;
  url: string;
  title: string;
  body: string;
}

/** The open PR whose head is `owner:branch`, if any. */
export async function findOpenPullRequest(
  options: RepoRef & { branch: string },
): Promise<PullRequestRef | undefined> {
  const { data } = await options.client.rest.pulls.list({
    owner: options.owner,
    repo: options.repo,
    state: "open",
    head: `${options.owner}:${options.branch}`,
    per_page: 10,
  });
  const pr = data[0];
  return pr
    ? { number: pr.number, url: pr.html_url, title: pr.title, body: pr.body ?? "" }
    : undefined;
}

/** Everything `upsertPullRequest` needs. */
export interface UpsertOptions extends RepoRef {
  branch: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  /**
   * The branch moved in this run. When it did not, an open PR is left as it is: its text holds
   * the cost and run link of the run that made the change, which a replay must not overwrite.
   */
  pushed: boolean;
  /** Shown when GitHub refuses to let Actions open pull requests. */
  compareUrl: string;
}

/**
 * Create the PR of the fixed branch, or update the open one (never a second). A 422 "already
 * exists" (a race with another run) becomes an update; a 5xx on the create is checked (GitHub
 * may have opened it before failing) instead of repeated; a 403 "not permitted" becomes an
 * actionable PullRequestNotPermittedError carrying the compare link. The operation follows
 * create-pull-request: `created`, `updated` when the branch moved, else `none`.
 */
export async function upsertPullRequest(
  options: UpsertOptions,
): Promise<{ operation: PullRequestOperation; pullRequest: PullRequestRef }> {
  const body = fitBody(options.body);
  let existing = await findOpenPullRequest(options);
  if (!existing) {
    try {
      const { data } = await options.client.rest.pulls.create({
        owner: options.owner,
        repo: options.repo,
        head: options.branch,
        base: options.base,
        title: options.title,
        body,
        draft: options.draft,
        maintainer_can_modify: false,
      });
      return {
        operation: "created",
        pullRequest: {
          number: data.number,
          url: data.html_url,
          title: data.title,
          body: data.body ?? "",
        },
      };
    } catch (error) {
      const status = githubStatus(error) ?? 0;
      const message = githubMessage(error);
      if (status === 403 && /not permitted to create or approve pull requests/i.test(message)) {
        throw new PullRequestNotPermittedError(options.compareUrl, message);
      }
      if (status >= 500) {
        const made = await findOpenPullRequest(options);
        if (made) return { operation: "created", pullRequest: made };
        throw error;
      }
      if (status !== 422 || !/already exists/i.test(message)) throw error;
      existing = await findOpenPullRequest(options);
      if (!existing) throw error;
    }
  }
  if (!options.pushed) return { operation: "none", pullRequest: existing };
  if (existing.title !== options.title || existing.body !== body) {
    await options.client.rest.pulls.update({
      owner: options.owner,
      repo: options.repo,
      pull_number: existing.number,
      title: options.title,
      body,
    });
  }
  return { operation: "updated", pullRequest: { ...existing, title: options.title, body } };
}

/**
 * Labels (every run) and reviewers (only on creation: re-requesting would re-notify them).
 * Each failure is handed to `onProblem` and the other still runs: the PR exists either way.
 */
export async function decoratePullRequest(
  options: RepoRef & {
    number: number;
    labels: string[];
    reviewers: string[];
    created: boolean;
    onProblem: (error: unknown) => void;
  },
): Promise<void> {
  if (options.labels.length > 0) {
    await options.client.rest.issues
      .addLabels({
        owner: options.owner,
        repo: options.repo,
        issue_number: options.number,
        labels: options.labels,
      })
      .catch(options.onProblem);
  }
  if (options.created && options.reviewers.length > 0) {
    const teams = options.reviewers
      .filter((name) => name.includes("/"))
      .map((name) => name.split("/")[1]);
    const users = options.reviewers.filter((name) => !name.includes("/"));
    await options.client.rest.pulls
      .requestReviewers({
        owner: options.owner,
        repo: options.repo,
        pull_number: options.number,
        reviewers: users,
        team_reviewers: teams,
      })
      .catch(options.onProblem);
  }
}

/** The hidden marker of the comment that says why the bot closed its PR. */
const closedMarker = "<!-- ecdysis-closed -->";

/**
 * Close the PR whose change disappeared, saying why in a comment; its body gets the marker that
 * tells later runs the bot closed it, not a human (`closed-pr-memory.ts`).
 */
export async function closePullRequest(
  options: RepoRef & { number: number; reason: string; body: string },
): Promise<void> {
  await upsertStickyComment({ ...options, body: options.reason, marker: closedMarker });
  await options.client.rest.pulls.update({
    owner: options.owner,
    repo: options.repo,
    pull_number: options.number,
    state: "closed",
    body: fitBody(`${closedByBotMarker}\n${options.body}`),
  });
}
