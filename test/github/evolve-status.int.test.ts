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
afterEach(() => double.close());

function evolve(): Promise<ActionRun> {
  return runAction({
    entry: { kind: "fake-ts", scenario: { edits: improved, runId: "r1" } },
    workspace: repo.work,
    apiUrl: double.url,
    inputs: { mode: "evolve", config: "agent/ecdysis.yml", "github-token": double.token },
  });
}

describe("every bot PR carries its held-out status (fake engine, real git, API double)", () => {
  it("the documented recovery — turn on the setting and re-run — opens the PR with its status, though the branch did not move", async () => {
    double.inject({
      operationId: "pulls/create",
      status: 403,
      body: {
        message: "GitHub Actions is not permitted to create or approve pull requests.",
        documentation_url: "https://docs.github.com/rest",
      },
    });
    const refused = await evolve();
    expect(refused.code).not.toBe(0);
    const sha = repo.remoteSha(branch)!;
    const rerun = await evolve();
    expect(rerun.code, rerun.stdout).toBe(0);
    expect(rerun.outputs["pull-request-operation"]).toBe("created");
    expect(repo.remoteSha(branch)).toBe(sha);
    const statuses = double.state.statuses.filter((status) => status.sha === sha);
    expect(statuses.at(-1)).toMatchObject({ state: "success", context: "ecdysis/heldout (agent)" });
    expect(double.calls("repos/create-commit-status").length).toBeGreaterThanOrEqual(2);
    double.assertValid();
  }, 180_000);
});
