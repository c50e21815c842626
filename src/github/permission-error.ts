import { TransportError } from "../errors/transport-error.js";

/** What a GitHub call is for, and the `permissions:` entry of the job it needs. */
interface CallPermission {
  method: string;
  route: RegExp;
  what: string;
  permission: string;
}

const calls: CallPermission[] = [
  {
    method: "POST",
    route: /\/statuses\/\{sha\}$/,
    what: "post the commit status",
    permission: "statuses: write",
  },
  {
    method: "POST",
    route: /\/pulls$/,
    what: "open the pull request",
    permission: "pull-requests: write",
  },
  {
    method: "PATCH",
    route: /\/pulls\/\{pull_number\}$/,
    what: "update the pull request",
    permission: "pull-requests: write",
  },
  {
    method: "POST",
    route: /\/requested_reviewers$/,
    what: "request reviewers",
    permission: "pull-requests: write",
  },
  {
    method: "POST",
    route: /\/issues\/\{issue_number\}\/labels$/,
    what: "add labels to the pull request",
    permission: "pull-requests: write",
  },
  {
    method: "POST",
    route: /\/issues\/\{issue_number\}\/comments$/,
    what: "comment on the pull request",
    permission: "pull-requests: write",
  },
  {
    method: "PATCH",
    route: /\/issues\/comments\/\{comment_id\}$/,
    what: "update the pull request comment",
    permission: "pull-requests: write",
  },
  {
    method: "GET",
    route: /\/pulls$/,
    what: "list pull requests",
    permission: "pull-requests: read",
  },
  {
    method: "GET",
    route: /\/comments$/,
    what: "read the pull request comments",
    permission: "pull-requests: read",
  },
  {
    method: "GET",
    route: /^\/repos\/\{owner\}\/\{repo\}$/,
    what: "read the repository",
    permission: "contents: read",
  },
];

/** The purpose and permission of a call (`method`, Octokit route template such as `/repos/{owner}/{repo}/pulls`). */
export function permissionFor(
  method: string,
  route: string,
): { what: string; permission: string } | undefined {
  const call = calls.find(
    (candidate) => candidate.method === method.toUpperCase() && candidate.route.test(route),
  );
  return call ? { what: call.what, permission: call.permission } : undefined;
}

/** GitHub's wording when the token lacks a permission (workflow token, App or fine-grained PAT). */
function isPermissionRefusal(status: number, message: string): boolean {
  return status === 403 && /resource not accessible by|permission to .* denied/i.test(message);
}

/**
 * The token may not make a call: names the call and the `permissions:` entry the job needs,
 * so the fix is one line of the workflow.
 */
export class GitHubPermissionError extends TransportError {
  /** HTTP status, as on Octokit's errors (callers branch on it). */
  readonly status = 403;

  constructor(
    readonly call: string,
    readonly permission: string,
    detail: string,
  ) {
    super(
      "github",
      `GitHub refused to ${call}: ${detail}. The token lacks '${permission}': add it under ` +
        `'permissions:' of the job (see docs/action.md, "Modes"), or pass a token that has it as 'github-token'.`,
      { status: 403, retryable: false },
    );
    this.name = "GitHubPermissionError";
  }
}

/** The permission error of a refused API request, when GitHub's answer says so. */
export function apiPermissionError(options: {
  method: string;
  route: string;
  status: number;
  message: string;
}): GitHubPermissionError | undefined {
  if (!isPermissionRefusal(options.status, options.message)) return undefined;
  const known = permissionFor(options.method, options.route);
  return new GitHubPermissionError(
    known
      ? `${known.what} (${options.method} ${options.route})`
      : `${options.method} ${options.route}`,
    known?.permission ?? "the permission this call needs",
    `403 "${options.message}"`,
  );
}

/**
 * A refused `git push`: a 403 (or "permission denied") means the token cannot write the
 * repository's contents; anything else stays git's own message.
 */
export function pushRefusal(options: { branch: string; stderr: string }): TransportError {
  const detail = options.stderr.trim();
  if (
    /returned error: 403|permission to .* denied|403 forbidden|write access .* not granted/i.test(
      detail,
    )
  )
    return new GitHubPermissionError(
      `push the branch '${options.branch}' (git push)`,
      "contents: write",
      detail,
    );
  return new TransportError("git", `git push of '${options.branch}' failed: ${detail}`, {
    retryable: false,
  });
}
