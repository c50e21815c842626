import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { addPullRequest, openPr, runGate } from "./gate-run.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";

let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture();
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
  addPullRequest(double);
});
afterEach(() => double.close());

const better = {
  "agent/harness/rules.md": "- paris is the capital of France.\n- rome is the capital of Italy.\n",
};
const statesOn = (sha: string) =>
  double.state.statuses.filter((status) => status.sha === sha).map((status) => status.state);

describe("gate errors (fake engine, real git, API double)", () => {
  it("a gate that throws sets gate-verdict 'error', posts an error status and fails with the cause", async () => {
    const pr = openPr(repo, better);
    const run = await runGate({
      repo,
      double,
      pr,
      scenario: { gateThrows: "endpoint http://127.0.0.1:9/v1 refused the connection" },
    });
    expect(run.code).not.toBe(0);
    expect(run.outputs["gate-verdict"]).toBe("error");
    expect(statesOn(pr.headSha)).toEqual(["pending", "error"]);
    expect(double.state.statuses.at(-1)?.description).toContain("refused the connection");
    expect(run.stdout).toMatch(/::error::held-out gate error: .*refused the connection/);
    expect(run.summary).toContain("refused the connection");
    double.assertValid();
  });

  it("403 on the sticky comment: the verdict, accuracies and status stay, 'pull-requests: write' is named", async () => {
    double.inject({
      operationId: "issues/create-comment",
      status: 403,
      body: {
        message: "Resource not accessible by integration",
        documentation_url: "https://docs.github.com/rest",
      },
    });
    const pr = openPr(repo, better);
    const run = await runGate({ repo, double, pr });
    expect(run.code).not.toBe(0);
    expect(run.outputs).toMatchObject({
      "gate-verdict": "pass",
      "baseline-heldout-accuracy": "0.2500",
      "final-heldout-accuracy": "0.5000",
    });
    expect(statesOn(pr.headSha)).toEqual(["pending", "success"]);
    expect(run.stdout).toMatch(
      /::error::GitHub refused to comment on the pull request.*'pull-requests: write'/,
    );
    double.assertValid();
  });

  it("403 on the status names 'statuses: write'; the comment is still posted", async () => {
    double.inject({
      operationId: "repos/create-commit-status",
      status: 403,
      body: {
        message: "Resource not accessible by integration",
        documentation_url: "https://docs.github.com/rest",
      },
      times: 3,
    });
    const pr = openPr(repo, better);
    const run = await runGate({ repo, double, pr });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toMatch(
      /::error::GitHub refused to post the commit status.*'statuses: write'/,
    );
    expect(run.outputs["gate-verdict"]).toBe("pass");
    expect(double.state.comments).toHaveLength(1);
    double.assertValid();
  });

  it("a comment GitHub posted before answering 502 is not posted twice", async () => {
    double.inject({
      operationId: "issues/create-comment",
      status: 502,
      body: { message: "Server Error" },
      afterHandling: true,
    });
    const pr = openPr(repo, better);
    const run = await runGate({ repo, double, pr });
    expect(run.code, run.stdout).toBe(0);
    expect(double.state.comments).toHaveLength(1);
    expect(double.calls("issues/create-comment")).toHaveLength(1);
    double.assertValid();
  });

  it("a comment GitHub did not post after a 502 is posted once more", async () => {
    double.inject({
      operationId: "issues/create-comment",
      status: 502,
      body: { message: "Server Error" },
    });
    const pr = openPr(repo, better);
    const run = await runGate({ repo, double, pr });
    expect(run.code, run.stdout).toBe(0);
    expect(double.state.comments).toHaveLength(1);
    expect(double.calls("issues/create-comment").map((call) => call.status)).toEqual([502, 201]);
    double.assertValid();
  });
});
