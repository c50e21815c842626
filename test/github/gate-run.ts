import { type ActionRun, runAction } from "./action-runner.js";
import type { GitHubApiDouble } from "./api-double/github-api-double.js";
import type { GitFixture } from "./git-fixture.js";

/** Put PR #1 (head `branch`, base main) on the double, as GitHub would have it. */
export function addPullRequest(double: GitHubApiDouble, branch = "tweak"): void {
  double.state.pulls.push({
    number: 1,
    state: "open",
    title: "tweak",
    body: "",
    head: branch,
    base: "main",
    draft: false,
    labels: [],
    reviewers: [],
    teamReviewers: [],
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
  });
}

/** Push a PR branch with `files` and check it out as the runner's checkout would. */
export function openPr(
  repo: GitFixture,
  files: Record<string, string>,
  branch = "tweak",
): { baseSha: string; headSha: string } {
  const baseSha = repo.remoteSha("main")!;
  const headSha = repo.commitAndPush({ files, message: "PR change", branch, from: "origin/main" });
  repo.git(["checkout", "--quiet", "--detach", headSha]);
  return { baseSha, headSha };
}

/** Run the gate (TypeScript entry, fake engine) on a pull_request event of PR #1. */
export function runGate(options: {
  repo: GitFixture;
  double: GitHubApiDouble;
  pr: { baseSha: string; headSha: string };
  scenario?: object;
  env?: Record<string, string>;
  /** The `config` input (default `agent/ecdysis.yml`). */
  config?: string;
  /** `full_name` of the repository the head branch lives in (a fork's); null: a deleted fork. */
  headRepository?: string | null;
}): Promise<ActionRun> {
  const { pr } = options;
  const repository = "octo-org/agent";
  const repo = (fullName: string | null) => (fullName === null ? null : { full_name: fullName });
  return runAction({
    entry: { kind: "fake-ts", scenario: options.scenario ?? {} },
    workspace: options.repo.work,
    apiUrl: options.double.url,
    eventName: "pull_request",
    sha: pr.headSha,
    env: options.env,
    event: {
      pull_request: {
        number: 1,
        head: {
          sha: pr.headSha,
          ref: "tweak",
          repo: repo(options.headRepository === undefined ? repository : options.headRepository),
        },
        base: { sha: pr.baseSha, ref: "main", repo: repo(repository) },
      },
      repository: { default_branch: "main", full_name: repository },
    },
    inputs: {
      mode: "gate",
      config: options.config ?? "agent/ecdysis.yml",
      "github-token": options.double.token,
    },
  });
}
