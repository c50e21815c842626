import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ActionRun, runAction } from "./action-runner.js";
import { GitHubApiDouble } from "./api-double/github-api-double.js";
import { createGitFixture, type GitFixture } from "./git-fixture.js";

const branch = "ecdysis/agent-harness";
const rules = "- Answer briefly.\n- paris is the capital of France.\n";
const improved = { "rules.md": `${rules}- lima is the capital of Peru.\n` };
const different = { "rules.md": `${rules}- rome is the capital of Italy.\n` };
let double: GitHubApiDouble;
let repo: GitFixture;

beforeEach(async () => {
  repo = createGitFixture();
  double = await new GitHubApiDouble().start();
  double.branchSha = (name) => repo.remoteSha(name);
});
afterEach(() => double.close());

function evolve(edits: object, inputs: Record<string, string> = {}): Promise<ActionRun> {
  return runAction({
    entry: { kind: "fake-ts", scenario: { edits, runId: `r${double.requests.length}` } },
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

/** A human closes PR `number` without merging it (and, if asked, deletes its branch). */
function humanCloses(number: number, options: { deleteBranch?: boolean } = {}): void {
  const pull = double.state.pulls.find((candidate) => candidate.number === number)!;
  pull.state = "closed";
  if (options.deleteBranch) repo.git(["push", "--quiet", "origin", "--delete", branch]);
}

describe("human decisions stick (fake engine, real git, API double)", () => {
  it("a closed PR's change is not proposed again; a different change opens a new PR that links it", async () => {
    const first = await evolve(improved);
    expect(first.outputs["pull-request-operation"]).toBe("created");
    humanCloses(1, { deleteBranch: true });
    const again = await evolve(improved);
    expect(again.code, again.stdout).toBe(0);
    expect(again.outputs["pull-request-operation"]).toBe("none");
    expect(double.state.pulls).toHaveLength(1);
    expect(repo.remoteSha(branch)).toBeUndefined();
    expect(again.stdout).toContain("::notice::A human closed #1");
    expect(again.summary).toContain("`ecdysis-reopen`");
    const changed = await evolve(different);
    expect(changed.code, changed.stdout).toBe(0);
    expect(changed.outputs).toMatchObject({
      "pull-request-operation": "created",
      "pull-request-number": "2",
    });
    expect(double.state.pulls[1].body).toContain(
      "A different change from #1, which was closed without merging.",
    );
    const sha = repo.remoteSha(branch)!;
    expect(double.state.statuses.filter((status) => status.sha === sha)).toMatchObject([
      { state: "success", context: "ecdysis/heldout (agent)" },
    ]);
    double.assertValid();
  }, 180_000);

  it("the label ecdysis-reopen on the closed PR, or the reopen-closed input, proposes the same change again", async () => {
    await evolve(improved);
    humanCloses(1);
    double.state.pulls[0].labels.push("ecdysis-reopen");
    const labelled = await evolve(improved);
    expect(labelled.outputs["pull-request-operation"], labelled.stdout).toBe("created");
    expect(double.state.pulls[1].body).toContain(
      "Proposed again on purpose (label `ecdysis-reopen` on #1)",
    );
    humanCloses(2);
    const declined = await evolve(improved);
    expect(declined.outputs["pull-request-operation"]).toBe("none");
    const asked = await evolve(improved, { "reopen-closed": "true" });
    expect(asked.outputs["pull-request-operation"], asked.stdout).toBe("created");
    expect(double.state.pulls[2].body).toContain("workflow input `reopen-closed`");
    expect(double.state.pulls.map((pull) => pull.state)).toEqual(["closed", "closed", "open"]);
    double.assertValid();
  }, 240_000);

  it("the branch of a merged or closed PR is deleted by the next run, unless someone else committed to it or delete-branch is false", async () => {
    const nothing = { "rules.md": `${rules}- be nice\n` };
    await evolve(improved);
    double.state.pulls[0].state = "closed";
    double.state.pulls[0].merged = true;
    const kept = await evolve(nothing, { "delete-branch": "false" });
    expect(kept.code, kept.stdout).toBe(0);
    expect(repo.remoteSha(branch)).toBeDefined();
    const afterMerge = await evolve(nothing);
    expect(afterMerge.code, afterMerge.stdout).toBe(0);
    expect(afterMerge.summary).toContain(`#1 was merged: branch \`${branch}\` deleted.`);
    expect(repo.remoteSha(branch)).toBeUndefined();
    await evolve(improved);
    humanCloses(2);
    const human = repo.commitAndPush({
      files: { "agent/harness/rules.md": "- mine\n" },
      message: "keep this",
      branch,
    });
    const foreign = await evolve(nothing);
    expect(foreign.summary).toContain("holds someone else's commits: kept.");
    expect(repo.remoteSha(branch)).toBe(human);
    double.assertValid();
  }, 240_000);
});
