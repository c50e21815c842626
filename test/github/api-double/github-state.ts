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
