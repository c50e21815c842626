import { TransportError } from "../errors/transport-error.js";

/**
 * GitHub refused to let the workflow token open a pull request (the repository setting is off).
 * The branch is pushed; `compareUrl` opens the PR by hand.
 */
export class PullRequestNotPermittedError extends TransportError {
  constructor(
    readonly compareUrl: string,
    githubMessage: string,
  ) {
    super(
      "github",
      `GitHub refused to open the pull request: "${githubMessage}". Turn on Settings → Actions → ` +
        `General → Workflow permissions → "Allow GitHub Actions to create and approve pull requests" ` +
        `(for an organisation, also in the organisation's Actions settings), or pass a GitHub App ` +
        `token as 'github-token'. The branch is pushed; open the pull request by hand: ${compareUrl}`,
      { status: 403, retryable: false },
    );
    this.name = "PullRequestNotPermittedError";
  }
}
