import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ActionRun, runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";

let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture();
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
  // The PR under test exists on the double (number 1).
  double.state.pulls.push({
    number: 1,
    state: "open",
    title: "tweak",
    body: "",
    head: "tweak",
    base: "main",
    draft: false,
    labels: [],
    reviewers: [],
    teamReviewers: [],
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
  });
});
afterEach(() => double.close());

/** Push a PR branch with `files` and check it out as the runner's merge checkout would. */
function openPr(
  files: Record<string, string>,
  branch = "tweak",
): { baseSha: string; headSha: string } {
  const baseSha = repo.remoteSha("main")!;
  const headSha = repo.commitAndPush({ files, message: "PR change", branch, from: "origin/main" });
  repo.git(["checkout", "--quiet", "--detach", headSha]);
  return { baseSha, headSha };
}

function gate(pr: { baseSha: string; headSha: string }): Promise<ActionRun> {
  return runAction({
    entry: { kind: "fake-ts", scenario: {} },
    workspace: repo.work,
    apiUrl: double.url,
    eventName: "pull_request",
    sha: pr.headSha,
    event: {
      pull_request: {
        number: 1,
        head: { sha: pr.headSha, ref: "tweak" },
        base: { sha: pr.baseSha, ref: "main" },
      },
      repository: { default_branch: "main" },
    },
    inputs: { mode: "gate", config: "agent/ecdysis.yml", "github-token": double.token },
  });
}

const statesOn = (sha: string) =>
  double.state.statuses.filter((status) => status.sha === sha).map((status) => status.state);

describe("gate mode (TypeScript entry, fake engine, real git, API double)", () => {
  it("a head harness that lowers held-out accuracy fails the step and posts a failing status", async () => {
    const pr = openPr({ "agent/harness/rules.md": "- Answer briefly.\n" });
    const run = await gate(pr);
    expect(run.code).not.toBe(0);
    expect(run.outputs["gate-verdict"]).toBe("fail");
    expect(run.outputs["baseline-heldout-accuracy"]).toBe("0.2500");
    expect(run.outputs["final-heldout-accuracy"]).toBe("0.0000");
    expect(run.stdout).toMatch(/::error::held-out gate fail/);
    expect(statesOn(pr.headSha)).toEqual(["pending", "failure"]);
    expect(double.state.statuses.at(-1)).toMatchObject({
      context: "ecdysis/heldout (agent)",
      targetUrl: "https://github.com/octo-org/agent/actions/runs/4242",
    });
    expect(double.state.comments).toHaveLength(1);
    expect(double.state.comments[0].body).toMatch(
      /^<!-- ecdysis-gate agent -->\n### Held-out gate: fail/,
    );
    double.assertValid();
  });

  it("a better head passes, and re-running updates the one sticky comment", async () => {
    const pr = openPr({
      "agent/harness/rules.md":
        "- paris is the capital of France.\n- rome is the capital of Italy.\n",
    });
    const first = await gate(pr);
    expect(first.code, first.stdout).toBe(0);
    expect(first.outputs["gate-verdict"]).toBe("pass");
    const second = await gate(pr);
    expect(second.code).toBe(0);
    expect(double.state.comments).toHaveLength(1);
    expect(double.calls("issues/update-comment")).toHaveLength(1);
    expect(statesOn(pr.headSha)).toEqual(["pending", "success", "pending", "success"]);
    double.assertValid();
  });

  it("a person's comment carrying the marker is never taken over", async () => {
    double.state.comments.push({
      id: 900,
      issueNumber: 1,
      body: "<!-- ecdysis-gate agent -->\n### Held-out gate: pass (trust me)",
      author: { login: "mallory", type: "User" },
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
    });
    const run = await gate(openPr({ "agent/harness/rules.md": "- Answer briefly.\n" }));
    expect(run.outputs["gate-verdict"]).toBe("fail");
    expect(double.calls("issues/update-comment")).toHaveLength(0);
    expect(double.state.comments).toHaveLength(2);
    expect(double.state.comments[0].body).toContain("trust me");
    expect(double.state.comments[1].body).toMatch(
      /^<!-- ecdysis-gate agent -->\n### Held-out gate: fail/,
    );
    double.assertValid();
  });

  it("a PR that edits the held-out tasks (and the gate threshold) cannot change the verdict", async () => {
    const worse = "- Answer briefly.\n";
    const honest = await gate(openPr({ "agent/harness/rules.md": worse }));
    const cheating = openPr(
      {
        "agent/harness/rules.md": worse,
        "agent/tasks/heldout.jsonl": '{"id":"x","input":"easy","expected":"briefly"}\n',
        "agent/ecdysis.yml":
          "model: { provider: openai, baseUrl: 'http://127.0.0.1:9/v1', model: fake }\nharness: { dir: harness }\ntasks: { train: tasks/train.jsonl, heldout: tasks/heldout.jsonl }\ngate: { statusContext: ecdysis/heldout, tolerance: 1 }\n",
      },
      "tweak-2",
    );
    const run = await gate(cheating);
    expect(run.code).not.toBe(0);
    expect(run.outputs["gate-verdict"]).toBe(honest.outputs["gate-verdict"]);
    expect(run.outputs["final-heldout-accuracy"]).toBe(honest.outputs["final-heldout-accuracy"]);
    expect(statesOn(cheating.headSha).at(-1)).toBe("failure");
    double.assertValid();
  });

  it("outside a pull_request event it fails with what to change", async () => {
    const run = await runAction({
      entry: { kind: "fake-ts", scenario: {} },
      workspace: repo.work,
      apiUrl: double.url,
      inputs: { mode: "gate", config: "agent/ecdysis.yml", "github-token": double.token },
    });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("mode 'gate' runs on pull_request events");
    expect(double.state.statuses).toEqual([]);
  });
});
