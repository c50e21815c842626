import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ActionRun, runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";

const improved = {
  "rules.md":
    "- Answer briefly.\n- paris is the capital of France.\n- lima is the capital of Peru.\n",
};
const notAccessible = {
  message: "Resource not accessible by integration",
  documentation_url: "https://docs.github.com/rest",
  status: "403",
};
let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture();
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
});
afterEach(() => double.close());

function evolve(inputs: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    entry: { kind: "fake-ts", scenario: { edits: improved, runId: "r1" } },
    workspace: repo.work,
    apiUrl: double.url,
    inputs: {
      mode: "evolve",
      config: "agent/ecdysis.yml",
      "github-token": double.token,
      ...inputs,
    },
  });
}

/** The outputs a run that got as far as the PR must keep, whatever failed after it. */
function expectPullRequestOutputs(run: ActionRun): void {
  expect(run.outputs).toMatchObject({
    "pull-request-operation": "created",
    "pull-request-number": "1",
    "pull-request-url": "https://github.com/octo-org/agent/pull/1",
    branch: "ecdysis/agent-harness",
    "baseline-heldout-accuracy": "0.2500",
    "final-heldout-accuracy": "0.5000",
  });
  expect(run.outputs["report-path"]).toMatch(/report\.md$/);
  expect(run.summary).toContain("Ecdysis evolve");
  expect(run.summary).toContain("pull-request-number");
  expect(run.summary).not.toContain("before producing a report");
}

describe("late errors keep the outputs and say what to fix (fake engine, real git, API double)", () => {
  it("403 on the commit status after the PR exists: outputs kept, 'statuses: write' named", async () => {
    double.inject({ operationId: "repos/create-commit-status", status: 403, body: notAccessible });
    const run = await evolve({ labels: "ecdysis" });
    expect(run.code).not.toBe(0);
    expectPullRequestOutputs(run);
    expect(run.stdout).toMatch(/::error::.*post the commit status.*statuses: write/);
    expect(run.summary).toContain("statuses: write");
    expect(double.state.pulls[0].labels).toEqual(["ecdysis"]);
    double.assertValid();
  });

  it("422 on reviewers: the labels and the status still happen, the failure is reported", async () => {
    double.inject({
      operationId: "pulls/request-reviewers",
      status: 422,
      body: {
        message:
          "Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the octo-org/agent repository.",
        documentation_url: "https://docs.github.com/rest",
      },
    });
    const run = await evolve({ labels: "ecdysis", reviewers: "outsider" });
    expect(run.code).not.toBe(0);
    expectPullRequestOutputs(run);
    expect(run.stdout).toMatch(/::error::.*Reviews may only be requested from collaborators/);
    expect(double.state.pulls[0].labels).toEqual(["ecdysis"]);
    expect(double.state.statuses).toMatchObject([{ state: "success" }]);
    double.assertValid();
  });

  it("403 on labels names 'pull-requests: write' and the call", async () => {
    double.inject({ operationId: "issues/add-labels", status: 403, body: notAccessible });
    const run = await evolve({ labels: "ecdysis" });
    expect(run.code).not.toBe(0);
    expectPullRequestOutputs(run);
    expect(run.stdout).toMatch(
      /::error::GitHub refused to add labels to the pull request \(POST \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/labels\).*'pull-requests: write'/,
    );
    double.assertValid();
  });

  it("403 on opening the PR names 'pull-requests: write'", async () => {
    double.inject({ operationId: "pulls/create", status: 403, body: notAccessible });
    const run = await evolve();
    expect(run.code).not.toBe(0);
    expect(run.stdout).toMatch(
      /::error::GitHub refused to open the pull request.*'pull-requests: write'/,
    );
    expect(run.outputs["final-heldout-accuracy"]).toBe("0.5000");
    expect(run.outputs.branch).toBe("ecdysis/agent-harness");
  });

  it("a refused push names 'contents: write' and keeps the accuracies", async () => {
    const hook = join(repo.origin, "hooks", "pre-receive");
    writeFileSync(
      hook,
      "#!/bin/sh\necho 'Permission to octo-org/agent.git denied to github-actions[bot].' >&2\nexit 1\n",
    );
    chmodSync(hook, 0o755);
    const run = await evolve();
    expect(run.code).not.toBe(0);
    expect(run.stdout).toMatch(
      /::error::GitHub refused to push the branch 'ecdysis\/agent-harness'.*'contents: write'/,
    );
    expect(run.outputs).toMatchObject({
      "pull-request-operation": "none",
      "baseline-heldout-accuracy": "0.2500",
      "final-heldout-accuracy": "0.5000",
    });
    expect(run.summary).toContain("contents: write");
    expect(double.state.pulls).toEqual([]);
  });
});
