import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { addPullRequest, openPr, runGate } from "./gate-run.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";

let double: GitHubApiDouble;
let repo: GitFixture;
let runnerTemp: string;

beforeEach(async () => {
  repo = createGitFixture();
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
  addPullRequest(double);
  runnerTemp = mkdtempSync(join(tmpdir(), "ecdysis-runner-temp-"));
});
afterEach(() => double.close());

/** Whether the engine's gate ran in this runner (the fake writes gate-inputs.json when it does). */
function engineGateRan(): boolean {
  return readdirSync(runnerTemp, { recursive: true }).some((path) =>
    String(path).endsWith("gate-inputs.json"),
  );
}

const readOnlyToken = {
  operationId: "issues/create-comment",
  status: 403,
  body: {
    message: "Resource not accessible by integration",
    documentation_url: "https://docs.github.com/rest",
  },
};

describe("gate outcomes that are neither pass nor fail (fake engine, real git, API double)", () => {
  it("a PR from a fork: its harness is never run, the outcome is neutral, and the message says what a maintainer can do", async () => {
    double.inject(readOnlyToken);
    const pr = openPr(repo, { "agent/harness/rules.md": "- Answer briefly.\n" });
    const run = await runGate({
      repo,
      double,
      pr,
      headRepository: "mallory/agent",
      env: { RUNNER_TEMP: runnerTemp },
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs["gate-verdict"]).toBe("neutral");
    expect(engineGateRan()).toBe(false);
    expect(run.stdout).not.toContain("::group::gate");
    expect(run.stdout).not.toContain("statuses: write");
    expect(run.stdout).toContain("::notice::This pull request comes from the fork `mallory/agent`");
    expect(run.summary).toContain(
      "git fetch origin pull/1/head:ecdysis-review/pr-1 && git push origin ecdysis-review/pr-1",
    );
    expect(run.summary).toContain("npx ecdysis gate --config agent/ecdysis.yml");
    expect(double.calls("repos/create-commit-status")).toEqual([]);
    double.assertValid();
  }, 180_000);

  it("a PR from a deleted fork, where the token may comment (pull_request_target): one sticky comment", async () => {
    const pr = openPr(repo, { "agent/harness/rules.md": "- Answer briefly.\n" });
    const run = await runGate({ repo, double, pr, headRepository: null });
    await runGate({ repo, double, pr, headRepository: null });
    expect(run.outputs["gate-verdict"]).toBe("neutral");
    expect(double.state.comments).toHaveLength(1);
    expect(double.state.comments[0].body).toMatch(
      /^<!-- ecdysis-fork -->\nThis pull request comes from a fork that no longer exists/,
    );
    expect(double.calls("repos/create-commit-status")).toEqual([]);
    double.assertValid();
  }, 180_000);

  it("a PR that leaves the harness untouched: no evaluation, a success status under the harness's context, an earlier gate comment updated", async () => {
    double.state.comments.push({
      id: 77,
      issueNumber: 1,
      body: "<!-- ecdysis-gate agent -->\n### Held-out gate: fail",
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
    });
    const pr = openPr(repo, { "README.md": "# demo, reworded\n" });
    const run = await runGate({ repo, double, pr, env: { RUNNER_TEMP: runnerTemp } });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs["gate-verdict"]).toBe("neutral");
    expect(engineGateRan()).toBe(false);
    expect(double.state.statuses).toMatchObject([
      {
        sha: pr.headSha,
        state: "success",
        context: "ecdysis/heldout (agent)",
        description: "harness unchanged from the base: nothing to gate",
      },
    ]);
    expect(double.state.comments).toHaveLength(1);
    expect(double.state.comments[0].body).toContain("leaves the harness as the base has it");
    double.assertValid();
  }, 180_000);

  it("a PR that leaves the harness untouched and has no gate comment gets none", async () => {
    const pr = openPr(repo, { "README.md": "# demo, reworded\n" });
    const run = await runGate({ repo, double, pr });
    expect(run.outputs["gate-verdict"]).toBe("neutral");
    expect(double.calls("issues/create-comment")).toEqual([]);
    double.assertValid();
  }, 180_000);
});
