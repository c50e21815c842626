import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { addPullRequest, openPr, runGate } from "./gate-run.js";
import { createGitFixture, type GitFixture, projectFiles } from "./git-fixture.js";

/** One repository, two harnesses: `a/` and `b/`, each with its config, harness and tasks. */
function twoHarnesses(): Record<string, string> {
  const files: Record<string, string> = { "README.md": "# two agents\n" };
  for (const [path, content] of Object.entries(projectFiles())) {
    if (!path.startsWith("agent/")) continue;
    files[path.replace(/^agent\//, "a/")] = content;
    files[path.replace(/^agent\//, "b/")] = content;
  }
  return files;
}

let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture(twoHarnesses());
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
});
afterEach(() => double.close());

/** GitHub's combined status of a commit, as a branch protection rule reads it. */
async function combined(sha: string): Promise<{ state: string; statuses: { context: string }[] }> {
  const response = await fetch(`${double.url}/repos/octo-org/agent/commits/${sha}/status`, {
    headers: { authorization: `token ${double.token}` },
  });
  return (await response.json()) as { state: string; statuses: { context: string }[] };
}

describe("two harnesses in one repository keep apart (fake engine, real git, API double)", () => {
  it("one PR, two gates (one worse, one harmless): two status contexts, combined failure, two sticky comments", async () => {
    addPullRequest(double);
    const pr = openPr(repo, {
      "a/harness/rules.md": "- Answer briefly.\n",
      "b/harness/rules.md": "- Answer briefly.\n- paris is the capital of France.\n- Be kind.\n",
    });
    const gateA = await runGate({ repo, double, pr, config: "a/ecdysis.yml" });
    const gateB = await runGate({ repo, double, pr, config: "b/ecdysis.yml" });
    expect(gateA.outputs["gate-verdict"]).toBe("fail");
    expect(gateA.code).not.toBe(0);
    expect(gateB.outputs["gate-verdict"], gateB.stdout).toBe("pass");
    expect(gateB.code).toBe(0);
    const latest = await combined(pr.headSha);
    expect(latest.state).toBe("failure");
    expect(
      Object.fromEntries(
        double.state.statuses
          .filter((status) => status.sha === pr.headSha)
          .map((status) => [status.context, status.state]),
      ),
    ).toEqual({ "ecdysis/heldout (a)": "failure", "ecdysis/heldout (b)": "success" });
    expect(latest.statuses.map((status) => status.context).sort()).toEqual([
      "ecdysis/heldout (a)",
      "ecdysis/heldout (b)",
    ]);
    const comments = double.state.comments.map((comment) => comment.body.split("\n")[0]);
    expect(comments).toEqual(["<!-- ecdysis-gate a -->", "<!-- ecdysis-gate b -->"]);
    // A re-run of a's gate updates a's comment and status, and leaves b's alone.
    await runGate({ repo, double, pr, config: "a/ecdysis.yml" });
    expect(double.state.comments).toHaveLength(2);
    expect((await combined(pr.headSha)).state).toBe("failure");
    double.assertValid();
  }, 180_000);

  it("two evolve runs give two PRs with distinct titles and branches, each with its own status", async () => {
    const improved = {
      "rules.md":
        "- Answer briefly.\n- paris is the capital of France.\n- lima is the capital of Peru.\n",
    };
    const evolve = (config: string) =>
      runAction({
        entry: { kind: "fake-ts", scenario: { edits: improved, runId: config } },
        workspace: repo.work,
        apiUrl: double.url,
        inputs: { mode: "evolve", config, "github-token": double.token },
      });
    const runA = await evolve("a/ecdysis.yml");
    const runB = await evolve("b/ecdysis.yml");
    expect(runA.code, runA.stdout).toBe(0);
    expect(runB.code, runB.stdout).toBe(0);
    expect(double.state.pulls.map((pull) => [pull.head, pull.title])).toEqual([
      ["ecdysis/a-harness", "Ecdysis (a): harness improvement"],
      ["ecdysis/b-harness", "Ecdysis (b): harness improvement"],
    ]);
    for (const [branch, context] of [
      ["ecdysis/a-harness", "ecdysis/heldout (a)"],
      ["ecdysis/b-harness", "ecdysis/heldout (b)"],
    ]) {
      const sha = repo.remoteSha(branch)!;
      expect(double.state.statuses.filter((status) => status.sha === sha)).toMatchObject([
        { state: "success", context },
      ]);
    }
    double.assertValid();
  }, 180_000);
});
