import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ActionRun, runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";

const branch = "ecdysis/agent-harness";
const improved = {
  "rules.md":
    "- Answer briefly.\n- paris is the capital of France.\n- lima is the capital of Peru.\n",
};
let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture();
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
});
afterEach(async () => {
  await double.close();
});

function evolve(scenario: object, inputs: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    entry: { kind: "fake-ts", scenario },
    workspace: repo.work,
    apiUrl: double.url,
    inputs: {
      mode: "evolve",
      config: "agent/ecdysis.yml",
      "github-token": double.token,
      "api-key": "sk-test-secret-123456",
      ...inputs,
    },
  });
}

function openPulls() {
  return double.state.pulls.filter((pull) => pull.state === "open");
}

describe("evolve mode (TypeScript entry, fake engine, real git, API double)", () => {
  it("pushes the fixed branch, opens one PR with labels, reviewers and draft, and posts the gate status", async () => {
    const run = await evolve(
      { edits: improved, runId: "r1" },
      { labels: "ecdysis, harness", reviewers: "octocat", draft: "true" },
    );
    const log = (run.stderr + run.stdout).replace(/^::add-mask::.*$/gm, "");
    expect(log).not.toContain("sk-test-secret-123456");
    expect(log).not.toContain(double.token);
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({
      "pull-request-operation": "created",
      "pull-request-number": "1",
      "pull-request-url": "https://github.com/octo-org/agent/pull/1",
      branch,
      "baseline-heldout-accuracy": "0.2500",
      "final-heldout-accuracy": "0.5000",
    });
    const sha = repo.remoteSha(branch)!;
    expect(repo.git(["log", "-1", "--format=%an <%ae>%n%B", sha], repo.origin)).toMatch(
      /^ecdysis\[bot\] <.*>\n[\s\S]*Ecdysis-Run: r1/,
    );
    expect(repo.git(["show", `${sha}:agent/harness/rules.md`], repo.origin)).toContain("lima");
    expect(repo.git(["rev-parse", `${sha}^`], repo.origin).trim()).toBe(repo.remoteSha("main"));
    expect(openPulls()).toMatchObject([
      {
        head: branch,
        base: "main",
        draft: true,
        labels: ["ecdysis", "harness"],
        reviewers: ["octocat"],
      },
    ]);
    expect(double.state.statuses).toMatchObject([
      { sha, state: "success", context: "ecdysis/heldout (agent)" },
    ]);
    expect(run.summary).toContain("Ecdysis evolve");
    expect(run.summary).toContain("pull-request-operation");
    double.assertValid();
  });

  it("a re-run with the same result leaves the branch and the PR as they are: operation 'none'", async () => {
    await evolve({ edits: improved, runId: "r1" });
    const first = repo.remoteSha(branch);
    const body = double.state.pulls[0].body;
    const again = await evolve({ edits: improved, runId: "r2" });
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs["pull-request-operation"]).toBe("none");
    expect(again.outputs["pull-request-number"]).toBe("1");
    expect(repo.remoteSha(branch)).toBe(first);
    expect(double.state.pulls).toHaveLength(1);
    // The body (cost and run link of the run that made the change) is not replaced by the replay's.
    expect(double.state.pulls[0].body).toBe(body);
    expect(double.calls("pulls/update")).toEqual([]);
    double.assertValid();
  });

  it("a different result on the same branch force-pushes and updates the one PR", async () => {
    await evolve({ edits: improved, runId: "r1" });
    const better = { "rules.md": `${improved["rules.md"]}- rome is the capital of Italy.\n` };
    const run = await evolve({ edits: better, runId: "r2" });
    expect(run.outputs["pull-request-operation"]).toBe("updated");
    expect(repo.git(["show", `${branch}:agent/harness/rules.md`], repo.origin)).toContain("rome");
    expect(repo.git(["rev-list", "--count", `main..${branch}`], repo.origin).trim()).toBe("1");
    expect(double.state.pulls).toHaveLength(1);
    expect(double.state.pulls[0].body).toContain("0.75");
    double.assertValid();
  });

  it("closes the PR when the change disappears (the base already has it)", async () => {
    await evolve({ edits: improved, runId: "r1" });
    repo.commitAndPush({
      files: { "agent/harness/rules.md": improved["rules.md"] },
      message: "adopt rule by hand",
      branch: "main",
      from: "origin/main",
    });
    const run = await evolve({ edits: improved, runId: "r2" });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs["pull-request-operation"]).toBe("closed");
    expect(openPulls()).toEqual([]);
    expect(double.state.comments.map((comment) => comment.body).join()).toContain(
      "nothing left to propose",
    );
    double.assertValid();
  });

  it("backs off when someone else pushed to the branch: no push, one comment", async () => {
    await evolve({ edits: improved, runId: "r1" });
    const human = repo.commitAndPush({
      files: { "agent/harness/rules.md": "- my own rule\n" },
      message: "human tweak",
      branch,
    });
    const better = { "rules.md": `${improved["rules.md"]}- rome is the capital of Italy.\n` };
    const run = await evolve({ edits: better, runId: "r2" });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs["pull-request-operation"]).toBe("none");
    expect(repo.remoteSha(branch)).toBe(human);
    const again = await evolve({ edits: better, runId: "r3" });
    expect(again.outputs["pull-request-operation"]).toBe("none");
    const comments = double.state.comments.filter((comment) => comment.body.includes("backs off"));
    expect(comments).toHaveLength(1);
    expect(comments[0].body).toContain(human.slice(0, 7));
    double.assertValid();
  });

  it("no improvement on held-out: nothing pushed, no PR", async () => {
    const run = await evolve({
      edits: { "rules.md": "- Answer briefly.\n- paris is the capital of France.\n- be nice\n" },
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs["pull-request-operation"]).toBe("none");
    expect(repo.remoteSha(branch)).toBeUndefined();
    expect(double.state.pulls).toEqual([]);
  });

  it("dry-run pushes nothing and touches no PR", async () => {
    const run = await evolve({ edits: improved }, { "dry-run": "true" });
    expect(run.code, run.stdout).toBe(0);
    expect(repo.remoteSha(branch)).toBeUndefined();
    expect(double.requests.filter((request) => request.method !== "GET")).toEqual([]);
    expect(run.summary).toContain("Dry run");
  });

  it("403 'not permitted to create pull requests' fails with the setting to change and the compare link", async () => {
    double.inject({
      operationId: "pulls/create",
      status: 403,
      body: {
        message: "GitHub Actions is not permitted to create or approve pull requests.",
        documentation_url: "https://docs.github.com/rest",
      },
    });
    const run = await evolve({ edits: improved });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("Allow GitHub Actions to create and approve pull requests");
    expect(run.stdout).toContain(
      "https://github.com/octo-org/agent/compare/main...ecdysis/agent-harness?expand=1",
    );
    expect(run.outputs["compare-url"]).toContain("/compare/main...");
    expect(repo.remoteSha(branch)).toBeDefined();
    expect(double.calls("pulls/create")).toHaveLength(1);
    double.assertValid();
  });

  it("a 422 'already exists' race turns into an update of the existing PR", async () => {
    await evolve({ edits: improved, runId: "r1" });
    // Another run's PR appears between our lookup of the open PR and our create.
    double.inject({
      operationId: "pulls/list",
      query: { state: "open" },
      status: 200,
      body: [] as unknown as Record<string, unknown>,
    });
    const better = { "rules.md": `${improved["rules.md"]}- rome is the capital of Italy.\n` };
    const run = await evolve({ edits: better, runId: "r2" });
    expect(run.outputs["pull-request-operation"]).toBe("updated");
    expect(double.calls("pulls/create").map((call) => call.status)).toEqual([201, 422]);
    expect(double.state.pulls).toHaveLength(1);
    double.assertValid();
  });

  it("a bad input fails before anything runs, naming the input", async () => {
    const run = await evolve({ edits: improved }, { "budget-rollouts": "lots" });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toMatch(/'budget-rollouts'.*whole number/);
    expect(double.requests).toEqual([]);
  });

  it("without a token (and no dry-run) it fails before the engine runs", async () => {
    const run = await evolve({ edits: improved }, { "github-token": "" });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("'github-token' is required");
    expect(run.stdout).not.toContain("::group::evolve");
    expect(double.requests).toEqual([]);
  });
});
