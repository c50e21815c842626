import type { GitHubClient } from "./github-client.js";
import { githubMessage, githubStatus } from "./github-client.js";
import { PullRequestNotPermittedError } from "./not-permitted-error.js";

/** GitHub refuses PR bodies over 65,536 characters. */
export const maxBodyChars = 65_536;

/** What the Action did to the pull request (the create-pull-request vocabulary). */
export type PullRequestOperation = "created" | "updated" | "closed" | "none";

/** An open pull request of the fixed branch. */
export interface PullRequestRef {
  number: number;
  url: string;
  title: string;
  body: string;
}

/** Where the PR lives. */
export interface RepoRef {
  client: GitHubClient;
  owner: string;
  repo: string;
}

/** Cut a body to GitHub's limit, keeping its head and saying where the rest is. */
export function fitBody(
  body: string,
  note = "the full report is in the workflow artifact",
): string {
  if (body.length <= maxBodyChars) return body;
  const tail = `\n\n… (truncated: ${note})\n`;
  return body.slice(0, maxBodyChars - tail.length) + tail;
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
  labels: string[];
  reviewers: string[];
  draft: boolean;
  /** The branch moved in this run (an open PR counts as updated even with the same text). */
  pushed: boolean;
  /** Shown when GitHub refuses to let Actions open pull requests. */
  compareUrl: string;
}

/**
 * Create the PR of the fixed branch, or update the open one (never a second). A 422 "already
 * exists" (a race with another run) becomes an update; a 403 "not permitted" becomes an
 * actionable PullRequestNotPermittedError carrying the compare link.
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
      const created = {
        number: data.number,
        url: data.html_url,
        title: data.title,
        body: data.body ?? "",
      };
      await decorate(options, created.number, true);
      return { operation: "created", pullRequest: created };
    } catch (error) {
      const status = githubStatus(error);
      const message = githubMessage(error);
      if (status === 403 && /not permitted to create or approve pull requests/i.test(message)) {
        throw new PullRequestNotPermittedError(options.compareUrl, message);
      }
      if (status !== 422 || !/already exists/i.test(message)) throw error;
      existing = await findOpenPullRequest(options);
      if (!existing) throw error;
    }
  }
  const changed = existing.title !== options.title || existing.body !== body;
  if (changed) {
    await options.client.rest.pulls.update({
      owner: options.owner,
      repo: options.repo,
      pull_number: existing.number,
      title: options.title,
      body,
    });
  }
  await decorate(options, existing.number, false);
  return {
    operation: changed || options.pushed ? "updated" : "none",
    pullRequest: { ...existing, title: options.title, body },
  };
}

async function decorate(options: UpsertOptions, number: number, created: boolean): Promise<void> {
  if (options.labels.length > 0) {
    await options.client.rest.issues.addLabels({
      owner: options.owner,
      repo: options.repo,
      issue_number: number,
      labels: options.labels,
    });
  }
  // Reviewers only on creation: re-requesting on every run would re-notify them.
  if (created && options.reviewers.length > 0) {
    const teams = options.reviewers
      .filter((name) => name.includes("/"))
      .map((name) => name.split("/")[1]);
    const users = options.reviewers.filter((name) => !name.includes("/"));
    await options.client.rest.pulls.requestReviewers({
      owner: options.owner,
      repo: options.repo,
      pull_number: number,
      reviewers: users,
      team_reviewers: teams,
    });
  }
}

/** Close the PR whose change disappeared, saying why in a comment. */
export async function closePullRequest(
  options: RepoRef & { number: number; reason: string },
): Promise<void> {
  await options.client.rest.issues.createComment({
    owner: options.owner,
    repo: options.repo,
    issue_number: options.number,
    body: options.reason,
  });
  await options.client.rest.pulls.update({
    owner: options.owner,
    repo: options.repo,
    pull_number: options.number,
    state: "closed",
  });
}
