import { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GitHubApiDouble } from "./github-api-double.js";

let double: GitHubApiDouble;
let octokit: Octokit;
const repo = { owner: "octo-org", repo: "agent" };

beforeEach(async () => {
  double = await new GitHubApiDouble().start();
  octokit = new Octokit({
    auth: double.token,
    baseUrl: double.url,
    log: { debug() {}, info() {}, warn() {}, error() {} },
  });
});
afterEach(() => double.close());

describe("GitHub API double", () => {
  it("keeps PR, comment, label and status state and answers with spec-valid responses", async () => {
    const created = await octokit.rest.pulls.create({
      ...repo,
      head: "ecdysis/harness",
      base: "main",
      title: "t",
      body: "b",
    });
    expect(created.status).toBe(201);
    expect(created.data.number).toBe(1);
    await octokit.rest.issues.addLabels({ ...repo, issue_number: 1, labels: ["ecdysis"] });
    await octokit.rest.pulls.requestReviewers({ ...repo, pull_number: 1, reviewers: ["octocat"] });
    const comment = await octokit.rest.issues.createComment({
      ...repo,
      issue_number: 1,
      body: "hello",
    });
    await octokit.rest.issues.updateComment({
      ...repo,
      comment_id: comment.data.id,
      body: "edited",
    });
    await octokit.rest.repos.createCommitStatus({
      ...repo,
      sha: "a".repeat(40),
      state: "failure",
      context: "ecdysis/heldout",
    });
    const list = await octokit.rest.pulls.list({
      ...repo,
      state: "open",
      head: "octo-org:ecdysis/harness",
    });
    expect(list.data.map((pull) => pull.number)).toEqual([1]);
    expect(list.data[0].labels.map((label) => label.name)).toEqual(["ecdysis"]);
    await octokit.rest.pulls.update({ ...repo, pull_number: 1, state: "closed" });
    expect((await octokit.rest.pulls.list({ ...repo, state: "open" })).data).toEqual([]);
    const comments = await octokit.rest.issues.listComments({ ...repo, issue_number: 1 });
    expect(comments.data.map((item) => item.body)).toEqual(["edited"]);
    expect((await octokit.rest.repos.get(repo)).data.default_branch).toBe("main");
    expect(double.state.statuses[0]).toMatchObject({
      state: "failure",
      context: "ecdysis/heldout",
    });
    double.assertValid();
  });

  it("answers a duplicate PR with GitHub's 422 'already exists'", async () => {
    await octokit.rest.pulls.create({ ...repo, head: "b", base: "main", title: "t" });
    const error = await octokit.rest.pulls
      .create({ ...repo, head: "b", base: "main", title: "t" })
      .catch((caught) => caught);
    expect(error.status).toBe(422);
    expect(JSON.stringify(error.response.data)).toContain("A pull request already exists");
    double.assertValid();
  });

  it("records a violation for a request the description does not allow", async () => {
    const error = await octokit
      .request("POST /repos/{owner}/{repo}/statuses/{sha}", {
        ...repo,
        sha: "a".repeat(40),
        state: "green" as "success",
      })
      .catch((caught) => caught);
    expect(error.status).toBe(400);
    expect(() => double.assertValid()).toThrow(/state/);
  });

  it("records a violation for an unknown query parameter and for a wrong body type", async () => {
    await octokit
      .request("GET /repos/{owner}/{repo}/pulls", { ...repo, colour: "red" })
      .catch(() => {});
    await octokit
      .request("POST /repos/{owner}/{repo}/issues/{issue_number}/comments", {
        ...repo,
        issue_number: 1,
        body: 5 as unknown as string,
      })
      .catch(() => {});
    expect(double.violations.map((violation) => violation.problem)).toEqual([
      "unknown query parameter 'colour'",
      expect.stringContaining("body /body must be string"),
    ]);
  });

  it("records a violation when a fault it was told to send is not a documented response", async () => {
    double.inject({
      operationId: "repos/create-commit-status",
      status: 418,
      body: { message: "teapot" },
    });
    await octokit.rest.repos
      .createCommitStatus({ ...repo, sha: "a".repeat(40), state: "success" })
      .catch(() => {});
    expect(() => double.assertValid()).toThrow(/418 is not documented/);
  });

  it("refuses a wrong token", async () => {
    const stranger = new Octokit({
      auth: "nope",
      baseUrl: double.url,
      log: { debug() {}, info() {}, warn() {}, error() {} },
    });
    const error = await stranger.rest.repos.get(repo).catch((caught) => caught);
    expect(error.status).toBe(401);
  });
});
