/** A pull request as the double keeps it. */
export interface PullState {
  number: number;
  state: "open" | "closed";
  title: string;
  body: string;
  head: string;
  base: string;
  draft: boolean;
  labels: string[];
  reviewers: string[];
  teamReviewers: string[];
  createdAt: string;
  updatedAt: string;
  /** Merged (closed with its change on the base); tests set it as GitHub's merge button would. */
  merged?: boolean;
}

/** An issue/PR comment. */
export interface CommentState {
  id: number;
  issueNumber: number;
  body: string;
  /** Who wrote it: the token's comments are the workflow bot's; tests seed human ones. */
  author?: { login: string; type: "Bot" | "User" };
  createdAt: string;
  updatedAt: string;
}

/** A commit status. */
export interface StatusState {
  id: number;
  sha: string;
  state: "error" | "failure" | "pending" | "success";
  context: string;
  description: string | null;
  targetUrl: string | null;
}

/**
 * GitHub's combined status of a commit: the latest status of each context; `failure` when any
 * is `error` or `failure`, `pending` when any is pending (or there is none), else `success`.
 */
export function combinedState(
  statuses: StatusState[],
  sha: string,
): { state: "failure" | "pending" | "success"; latest: StatusState[] } {
  const latest = new Map<string, StatusState>();
  for (const status of statuses) if (status.sha === sha) latest.set(status.context, status);
  const states = [...latest.values()].map((status) => status.state);
  const failed = states.some((value) => value === "failure" || value === "error");
  const waiting = states.length === 0 || states.includes("pending");
  const state = failed ? "failure" : waiting ? "pending" : "success";
  return { state, latest: [...latest.values()] };
}

/** The repository the double serves, and everything the Action changed in it. */
export interface RepoState {
  owner: string;
  repo: string;
  defaultBranch: string;
  pulls: PullState[];
  comments: CommentState[];
  statuses: StatusState[];
}

/** An empty repository state. */
export function emptyRepoState(options: {
  owner: string;
  repo: string;
  defaultBranch?: string;
}): RepoState {
  return {
    owner: options.owner,
    repo: options.repo,
    defaultBranch: options.defaultBranch ?? "main",
    pulls: [],
    comments: [],
    statuses: [],
  };
}
