import { execFileSync } from "node:child_process";
import { join } from "node:path";
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

function evolve(
  scenario: object,
  options: {
    workspace?: string;
    inputs?: Record<string, string>;
    env?: Record<string, string>;
  } = {},
): Promise<ActionRun> {
  return runAction({
    entry: { kind: "fake-ts", scenario },
    workspace: options.workspace ?? repo.work,
    apiUrl: double.url,
    env: options.env,
    inputs: {
      mode: "evolve",
      config: "agent/ecdysis.yml",
      "github-token": double.token,
      ...options.inputs,
    },
  });
}

/** A human change merged to main while the run goes on: the checkout stays at the seed. */
function mergeDuringRun(files: Record<string, string>): string {
  const seed = repo.git(["rev-parse", "HEAD"]).trim();
  const merged = repo.commitAndPush({ files, message: "human harness change", branch: "main" });
  repo.git(["reset", "--quiet", "--hard", seed]);
  return merged;
}

const show = (ref: string, path: string) => repo.git(["show", `${ref}:${path}`], repo.origin);

describe("evolve onto a base that moved during the run (fake engine, real git, API double)", () => {
  it("a harness change merged meanwhile is kept: the run's diff is merged onto it, and the PR says so", async () => {
    const humanYaml = "agent_loop: { style: react, max_steps: 9 }\n";
    const merged = mergeDuringRun({ "agent/harness/harness.yaml": humanYaml });
    const run = await evolve({ edits: improved, runId: "r1" });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs["pull-request-operation"]).toBe("created");
    const sha = repo.remoteSha(branch)!;
    expect(repo.git(["rev-parse", `${sha}^`], repo.origin).trim()).toBe(merged);
    expect(show(sha, "agent/harness/harness.yaml")).toBe(humanYaml);
    expect(show(sha, "agent/harness/rules.md")).toContain("lima");
    expect(run.outputs["base-harness"]).toBe("merged");
    expect(double.state.pulls[0].body).toContain("changed while this run was going");
    expect(run.summary).toContain("changed while this run was going");
    // What the PR proposes was never measured: no success status on it.
    expect(double.state.statuses).toEqual([]);
    double.assertValid();
  });

  it("a conflicting harness change merged meanwhile is never written over: nothing pushed, the reason given", async () => {
    mergeDuringRun({ "agent/harness/rules.md": "- Answer in one word.\n- paris.\n" });
    const run = await evolve({ edits: improved, runId: "r1" });
    expect(run.code).not.toBe(0);
    expect(run.outputs["base-harness"]).toBe("conflict");
    expect(run.outputs["pull-request-operation"]).toBe("none");
    expect(run.stdout).toMatch(/does not merge onto `main`.*agent\/harness\/rules\.md/);
    expect(run.summary).toContain("does not merge onto");
    expect(repo.remoteSha(branch)).toBeUndefined();
    expect(double.state.pulls).toEqual([]);
    double.assertValid();
  });

  it("with an unchanged base harness the status is posted and base-harness is 'unchanged'", async () => {
    mergeDuringRun({ "README.md": "# demo, edited\n" });
    const run = await evolve({ edits: improved, runId: "r1" });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs["base-harness"]).toBe("unchanged");
    const sha = repo.remoteSha(branch)!;
    expect(show(sha, "README.md")).toBe("# demo, edited\n");
    expect(double.state.statuses).toMatchObject([{ sha, state: "success" }]);
    double.assertValid();
  });
});

describe("the PR base (fake engine, real git, API double)", () => {
  it("a dispatch from another branch proposes to that branch, on a branch of its own", async () => {
    const feature = repo.commitAndPush({
      files: { "agent/harness/rules.md": "- Answer briefly.\n- rome is the capital of Italy.\n" },
      message: "feature harness",
      branch: "feature",
      from: "origin/main",
    });
    repo.git(["checkout", "--quiet", "-B", "feature", feature]);
    const run = await evolve(
      {
        edits: { "rules.md": "- rome is the capital of Italy.\n- lima is the capital of Peru.\n" },
      },
      { env: { GITHUB_REF: "refs/heads/feature" } },
    );
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs.branch).toBe("ecdysis/agent-harness-to-feature");
    expect(double.state.pulls).toMatchObject([
      { head: "ecdysis/agent-harness-to-feature", base: "feature" },
    ]);
    const sha = repo.remoteSha("ecdysis/agent-harness-to-feature")!;
    expect(repo.git(["rev-parse", `${sha}^`], repo.origin).trim()).toBe(feature);
    expect(repo.git(["diff", "--name-only", `feature..${sha}`], repo.origin).trim()).toBe(
      "agent/harness/rules.md",
    );
    double.assertValid();
  });

  it("a checkout on a tag has no branch to propose to: it refuses before the engine runs", async () => {
    repo.git(["tag", "v1"]);
    repo.git(["checkout", "--quiet", "--detach", "v1"]);
    const run = await evolve({ edits: improved }, { env: { GITHUB_REF: "refs/tags/v1" } });
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain("the checkout is not on a branch (GITHUB_REF 'refs/tags/v1')");
    expect(run.stdout).toContain("set 'base'");
    expect(run.stdout).not.toContain("::group::evolve");
    expect(repo.remoteSha(branch)).toBeUndefined();
  });

  it("in a shallow checkout (fetch-depth 1) the base's own commits are not someone else's", async () => {
    await evolve({ edits: improved, runId: "r1" });
    repo.commitAndPush({ files: { "README.md": "# moved on\n" }, message: "docs", branch: "main" });
    const shallow = join(repo.root, "shallow");
    execFileSync("git", ["clone", "--quiet", "--depth=1", `file://${repo.origin}`, shallow]);
    expect(
      execFileSync("git", ["rev-parse", "--is-shallow-repository"], { cwd: shallow }).toString(),
    ).toMatch(/true/);
    const run = await evolve({ edits: improved, runId: "r2" }, { workspace: shallow });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).not.toContain("backs off");
    expect(run.outputs["pull-request-operation"]).toBe("updated");
    const sha = repo.remoteSha(branch)!;
    expect(repo.git(["rev-parse", `${sha}^`], repo.origin).trim()).toBe(repo.remoteSha("main"));
    expect(double.state.comments).toEqual([]);
    double.assertValid();
  });
});
